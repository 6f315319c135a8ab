package dev.firedrill.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.firedrill.cli.DetectionDrills.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.firedrill.net.Loopback;
import dev.firedrill.proxy.FaultProxy;
import dev.firedrill.proxy.ProxyConfig;
import dev.firedrill.testing.LoadTarget;
import dev.firedrill.testing.RealPrometheus;
import dev.firedrill.testing.Results;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole drill through the engine ({@code firedrill run}, in process) with Grafana as the stack:
 * payments behind the project's fault proxy, load through it, a real Prometheus scraping the
 * proxy's request counts, and a {@link ScriptedGrafana} whose rule goes Pending then Alerting when
 * the real Prometheus shows the fault, and whose contact point posts its webhook to firedrill's
 * receiver. firedrill reads the SLI through Grafana's data-source proxy, the rules through
 * Grafana's Prometheus-compatible API, the routing through Grafana's Alertmanager, all with one
 * service-account token from a file; the alert is named by its title, spaces and all.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GrafanaStackDrillTest {

  private static final String TOKEN = "glsa_drill-service-account-s3cr3t";

  /** The proxy's error ratio: the requests its error toxic answered over all requests. */
  private static final String ERROR_RATIO =
      "(sum(rate(firedrill_proxy_requests_total{toxic=\"error\"}[3s])) or vector(0))"
          + " / sum(rate(firedrill_proxy_requests_total[3s]))";

  /** The same over the requests the proxy's latency toxic slowed: the fault adds none. */
  private static final String SLOW_RATIO =
      "(sum(rate(firedrill_proxy_requests_total{toxic=\"latency\"}[3s])) or vector(0))"
          + " / sum(rate(firedrill_proxy_requests_total[3s]))";

  private static final String TITLE = "Checkout error ratio high";
  private static final String UID = "ddlo0d8rv3ocgd";
  private static final ScriptedGrafana.RuleSpec PAGE =
      new ScriptedGrafana.RuleSpec(TITLE, UID, ERROR_RATIO, 0.05);

  /** A rule the fault does not touch, named by its UID in the experiment: it stays Normal. */
  private static final ScriptedGrafana.RuleSpec QUIET =
      new ScriptedGrafana.RuleSpec("Checkout slow share high", "bdlo0e1tq8hs0a", SLOW_RATIO, 0.05);

  @TempDir Path dir;

  @Test
  void aGrafanaManagedRuleDetectsTheFaultAndItsContactPointGivesTimeToNotify() throws Exception {
    InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    WireMockServer wiremock =
        new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());
    ScheduledExecutorService timers = Executors.newScheduledThreadPool(2);
    try (LoadTarget payments = LoadTarget.start();
        FaultProxy proxy =
            FaultProxy.start(
                new ProxyConfig(
                    "payments",
                    ProxyConfig.Mode.HTTP,
                    any,
                    payments.url("/"),
                    any,
                    Optional.of(any),
                    Optional.empty()));
        RealPrometheus prometheus =
            RealPrometheus.start(
                List.of("127.0.0.1:" + proxy.metricsAddress().orElseThrow().getPort()))) {
      wiremock.start();
      int receiverPort = Loopback.freePort();
      ScriptedGrafana grafana =
          new ScriptedGrafana(
              wiremock,
              TOKEN,
              prometheus.url(),
              URI.create("http://127.0.0.1:" + receiverPort + "/alerts"),
              PAGE,
              QUIET);
      load(timers, proxy.url());
      timers.scheduleAtFixedRate(grafana::evaluate, 0, 1, TimeUnit.SECONDS);
      prometheus.awaitQuery(ERROR_RATIO, Results.valueNear(0, 0), Duration.ofSeconds(10));

      Path token = Files.writeString(dir.resolve("grafana-token"), TOKEN + "\n");
      String base = "http://127.0.0.1:" + wiremock.port();
      Path file =
          Files.writeString(
              dir.resolve("grafana.yaml"), experiment(base, token, receiverPort, proxy.adminUrl()));
      Path journalFile = dir.resolve("grafana.json");
      long began = System.nanoTime();
      CliRun run =
          CliRun.of(
              "run",
              file.toString(),
              "--journal",
              journalFile.toString(),
              "--history",
              CliRun.historyBeside(journalFile));
      System.out.printf("grafana drill: %.1fs%n", (System.nanoTime() - began) / 1e9);

      assertThat(run.exit()).as(run.describe()).isEqualTo(1);
      assertThat(run.out() + run.err()).doesNotContain(TOKEN);
      assertThat(Files.readString(journalFile)).doesNotContain(TOKEN);
      JsonNode journal = new ObjectMapper().readTree(journalFile.toFile());
      assertThat(journal.path("verdict").asText()).as(run.describe()).isEqualTo("deviated");
      assertThat(journal.path("detection").path("verdict").asText())
          .as(journal.path("detection").toString())
          .isEqualTo("deviated");
      JsonNode quiet = row(journal, QUIET.title());
      assertThat(quiet.path("fired").asBoolean()).as(quiet.toString()).isFalse();
      assertThat(quiet.path("reason").asText())
          .as(quiet.toString())
          .startsWith("missed: did not fire within 10s; its floor is ");
      assertThat(grafana.transitions(QUIET.title())).as("the quiet rule").isEmpty();

      JsonNode page = row(journal, TITLE);
      Instant injected = Instant.parse(journal.path("injected_at").asText());
      Instant alerting = grafana.alertingAt(TITLE).orElseThrow();
      List<String> transitions = grafana.transitions(TITLE);
      assertThat(transitions).as("Grafana's rule").hasSizeGreaterThanOrEqualTo(3);
      assertThat(transitions.get(0)).startsWith("Pending at ");
      assertThat(transitions.get(1)).isEqualTo("Alerting at " + alerting);
      assertThat(transitions.get(2)).isEqualTo("webhook answered 200");
      // Grafana's activeAt of Alerting (the webhook's startsAt too) is the firing time as it is.
      assertThat(page.path("time_to_detect_s").asDouble())
          .as(page.toString())
          .isCloseTo(Duration.between(injected, alerting).toMillis() / 1000.0, offset(0.0015));
      assertThat(page.path("detect_source").asText()).isEqualTo("webhook startsAt");
      assertThat(Duration.between(injected, alerting))
          .as("the rule fired on the fault, after its for")
          .isGreaterThanOrEqualTo(ScriptedGrafana.FOR);
      assertThat(page.path("time_to_notify_s").asDouble()).as(page.toString()).isBetween(0.0, 2.0);
      assertThat(page.path("receiver").asText()).as(page.toString()).isEqualTo("yes");
      assertThat(page.path("receiver_detail").asText())
          .isEqualTo("routed to " + ScriptedGrafana.CONTACT_POINT);
      assertThat(page.path("runbook").asText()).isEqualTo("yes");
      assertThat(page.path("held").asBoolean()).isTrue();
      assertThat(journal.path("receiver").path("rejected").asLong()).isZero();

      // Every SLI reading went through the data-source proxy; every read carried the token.
      wiremock.verify(
          postRequestedFor(urlEqualTo(ScriptedGrafana.PROXY + "/api/v1/query"))
              .withHeader("Authorization", equalTo("Bearer " + TOKEN)));
      wiremock.verify(
          getRequestedFor(urlPathMatching("/api/alertmanager/grafana/api/v2/alerts.*"))
              .withHeader("Authorization", equalTo("Bearer " + TOKEN)));
      assertThat(wiremock.findAllUnmatchedRequests()).as("requests Grafana would refuse").isEmpty();

      // plan predicts the route through the notification policies' object_matchers.
      CliRun plan = CliRun.of("plan", file.toString());
      assertThat(plan.out())
          .as(plan.describe())
          .contains("; matches Grafana rule \"" + TITLE + "\" (uid " + UID + ")")
          .contains("; routes to " + ScriptedGrafana.CONTACT_POINT + "\n")
          .contains(
              "Grafana's no-data and error states from /api/v1/provisioning/alert-rules (2 rules)");
      wiremock.verify(getRequestedFor(urlEqualTo("/api/v1/provisioning/policies")));
      assertThat(wiremock.findAll(anyRequestedFor(urlPathMatching("/api/annotations.*"))))
          .as("the drill's annotation")
          .isNotEmpty();
    } finally {
      timers.shutdownNow();
      wiremock.stop();
    }
  }

  /** 50 requests a second through the proxy, at most 3000, until the timers stop. */
  private static void load(ScheduledExecutorService timers, URI proxy) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    HttpRequest request =
        HttpRequest.newBuilder(proxy.resolve("/pay")).timeout(Duration.ofSeconds(1)).build();
    AtomicInteger sent = new AtomicInteger();
    timers.scheduleAtFixedRate(
        () -> {
          if (sent.incrementAndGet() > 3000) {
            throw new IllegalStateException("load bound reached"); // ends this task only
          }
          try {
            http.send(request, HttpResponse.BodyHandlers.discarding());
          } catch (IOException e) {
            // A failed request is a datum the proxy already counted or never saw; carry on.
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        },
        0,
        20,
        TimeUnit.MILLISECONDS);
  }

  private static String experiment(String grafana, Path token, int receiverPort, URI proxyAdmin) {
    return """
        id: grafana-stack
        title: Payments failing pages the payments team through Grafana
        owner: team-payments
        prometheus:
          url: %1$s/api/datasources/proxy/uid/prom
          rules_url: %1$s/api/prometheus/grafana
          bearer_token_file: %2$s
          timeout: 2s
          scrape_interval: 1s
          evaluation_interval: 1s
        alertmanager:
          url: %1$s/api/alertmanager/grafana
          bearer_token_file: %2$s
        receiver: {listen: 127.0.0.1:%3$d}
        markers:
          grafana:
            url: %1$s
            bearer_token_file: %2$s
        steady_state:
          interval: 1s
          slis:
            - name: error_ratio
              query: '%4$s'
              max: 0.01
        hypothesis:
          recovery: 3s
          alerts:
            - alert: %5$s
              matchers: {team: payments}
              within: 10s
              receiver: %6$s
              runbook_url: %7$s
            - alert: %9$s
              matchers: {team: payments}
              within: 10s
        method:
          duration: 5s
          faults:
            - kind: http-error
              proxy: %8$s
              proxy_name: payments
              share: 1
              status: 503
              ttl: 1m
        abort:
          rules:
            - sli: error_ratio
              above: 2
        blast_radius:
          traffic_share: 100%%
          max_duration: 5m
          budget_ceiling: 5%%
        """
        .formatted(
            grafana,
            token,
            receiverPort,
            ERROR_RATIO.replace("'", "''"),
            TITLE,
            ScriptedGrafana.CONTACT_POINT,
            ScriptedGrafana.RUNBOOK,
            proxyAdmin,
            QUIET.uid());
  }
}
