package dev.firedrill.cli;

import static dev.firedrill.cli.DetectionDrills.row;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.Rule;
import dev.firedrill.prometheus.RuleGroup;
import dev.firedrill.testing.BetweenDrills;
import dev.firedrill.testing.FiredrillChild;
import dev.firedrill.testing.FiredrillJar;
import dev.firedrill.testing.RealVictoriaMetrics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole drills against VictoriaMetrics instead of Prometheus ({@link RealVictoriaMetrics}):
 * victoria-metrics scrapes the lab, vmalert evaluates the lab's recording rules and {@code
 * alert-rules/} and sends to the lab's Alertmanager, vmauth asks for basic auth. firedrill measures
 * the SLIs through vmauth (the password only in its environment) and reads rules and alerts from
 * vmalert; the fixture drills end as they do on Prometheus.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VictoriaMetricsDrillTest {

  private static final Duration DRILL_LIMIT = Duration.ofMinutes(3);
  private static RealVictoriaMetrics vm;

  @TempDir Path dir;

  @BeforeAll
  static void startStack() throws Exception {
    vm =
        RealVictoriaMetrics.start(
            "vm-drill", LabStackOptions.firedrillCommand(), Duration.ofMinutes(10));
  }

  @AfterAll
  static void stopStack() {
    if (vm != null) {
      vm.close();
    }
  }

  @BeforeEach
  void quietLab() throws Exception {
    BetweenDrills.awaitQuiet(vm.vmalert(), vm.victoriaMetrics());
  }

  @Test
  @Order(1)
  void vmauthAsksForThePasswordAndVmalertEvaluatesTheLabsRules() throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    URI query = vm.vmauth().resolve("/api/v1/query?query=up");
    assertThat(
            http.send(HttpRequest.newBuilder(query).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode())
        .as("without credentials")
        .isEqualTo(401);
    String wrong =
        Base64.getEncoder()
            .encodeToString((RealVictoriaMetrics.USER + ":wrong").getBytes(StandardCharsets.UTF_8));
    assertThat(
            http.send(
                    HttpRequest.newBuilder(query).header("Authorization", "Basic " + wrong).build(),
                    HttpResponse.BodyHandlers.ofString())
                .statusCode())
        .as("with a wrong password")
        .isEqualTo(401);
    String right =
        Base64.getEncoder()
            .encodeToString(
                (RealVictoriaMetrics.USER + ":" + vm.password()).getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> answer =
        http.send(
            HttpRequest.newBuilder(query).header("Authorization", "Basic " + right).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    assertThat(answer.body())
        .as("victoria-metrics scrapes the lab")
        .contains("\"job\":\"checkout\"");

    List<RuleGroup> groups =
        new HttpPrometheusClient(vm.vmalert(), Duration.ofSeconds(2), Optional.empty()).rules();
    assertThat(groups).extracting(RuleGroup::name).contains("lab-sli", "lab-alerts");
    RuleGroup alerts =
        groups.stream().filter(g -> g.name().equals("lab-alerts")).findFirst().orElseThrow();
    assertThat(alerts.interval()).as("-evaluationInterval").isEqualTo(Duration.ofSeconds(1));
    Rule.Alerting orders =
        alerts.rules().stream()
            .filter(r -> r instanceof Rule.Alerting a && a.name().equals("CheckoutOrdersPending"))
            .map(Rule.Alerting.class::cast)
            .findFirst()
            .orElseThrow();
    assertThat(orders.duration()).as("its for").isEqualTo(Duration.ofSeconds(5));
    assertThat(orders.health()).isEqualTo("ok");
  }

  @Test
  @Order(2)
  void theMildFixtureHolds() throws Exception {
    JsonNode journal = drill("payments-latency", 0);

    assertThat(journal.path("verdict").asText())
        .as(journal.path("reason").asText())
        .isEqualTo("held");
    assertThat(journal.path("detection").path("verdict").asText()).isEqualTo("held");
  }

  /**
   * Last: the only drill that pages. A drill after it would first need Alertmanager's resolved
   * notification delivered ({@link BetweenDrills#deliverResolved}), a minute or more.
   */
  @Test
  @Order(3)
  void theSevereFixtureIsAbortedByTheBurnRateGuardAndPagesCheckout() throws Exception {
    JsonNode journal = drill("payments-outage", 3);

    assertThat(journal.path("verdict").asText()).isEqualTo("aborted");
    assertThat(journal.path("reason").asText()).startsWith("burn rate ");
    JsonNode page = row(journal, "CheckoutErrorBudgetBurn");
    assertThat(page.path("held").asBoolean()).as(page.toString()).isTrue();
    assertThat(page.path("detect_source").asText()).isEqualTo("webhook startsAt");
    assertThat(page.path("receiver").asText()).as(page.toString()).isEqualTo("yes");
    assertThat(page.path("runbook").asText()).as(page.toString()).isEqualTo("yes");
  }

  /**
   * Runs a fixture of fixtures/experiments on this stack; the password appears in none of its files
   * or output.
   */
  private JsonNode drill(String fixture, int exit) throws Exception {
    Path file =
        Files.writeString(
            dir.resolve(fixture + ".yaml"),
            vm.experiment(
                Files.readString(
                    Path.of("fixtures/experiments/" + fixture + ".yaml").toAbsolutePath())));
    Path journal = dir.resolve(fixture + ".json");
    FiredrillJar.Run run =
        FiredrillChild.run(
            dir,
            vm.environment(),
            DRILL_LIMIT,
            "run",
            file.toString(),
            "--journal",
            journal.toString());
    assertThat(run.exit()).as(run.output()).isEqualTo(exit);
    assertThat(run.output()).doesNotContain(vm.password());
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path written : files.filter(Files::isRegularFile).toList()) {
        assertThat(new String(Files.readAllBytes(written), StandardCharsets.ISO_8859_1))
            .as(written.toString())
            .doesNotContain(vm.password());
      }
    }
    return new ObjectMapper().readTree(journal.toFile());
  }
}
