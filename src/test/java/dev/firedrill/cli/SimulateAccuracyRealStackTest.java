package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.lab.stack.LabPorts;
import dev.firedrill.lab.stack.LabStack;
import dev.firedrill.lab.stack.TempDirs;
import dev.firedrill.testing.RequiredBinary;
import dev.firedrill.time.Clock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The prediction against the measurement: the same drill run against the whole lab (the real
 * prometheus and prometheus-alertmanager, 1 s scrape and evaluation, the repo's rules and route tree)
 * and simulated; predicted and measured time to detect must agree within two evaluation intervals.
 */
class SimulateAccuracyRealStackTest {

  private static final Duration EVALUATION_INTERVAL = Duration.ofSeconds(1);

  private static final String EXPERIMENT = """
      id: accuracy-payments-503
      title: Payments answering 503 pages checkout's team
      prometheus: {url: http://127.0.0.1:19090, timeout: 2s}
      alertmanager: {url: http://127.0.0.1:19093}
      receiver: {listen: 127.0.0.1:19101}
      steady_state:
        interval: 1s
        slis:
          - name: checkout_error_ratio
            query: service:http_error_ratio:rate5s{service="checkout"}
            max: 0.01
      hypothesis:
        recovery: 20s
        alerts:
          - alert: CheckoutErrorBudgetBurn
            matchers: {service: checkout}
            within: 20s
            receiver: team-checkout
      method:
        duration: 8s
        faults:
          - kind: http-error
            proxy: http://127.0.0.1:18474
            proxy_name: payments
            percent: 100
            status: 503
            ttl: 1m
      abort:
        # Detection is what is measured: nothing the fault does may stop the drill early.
        rules:
          - sli: checkout_error_ratio
            above: 2
      blast_radius:
        traffic_share: 100%
        max_duration: 5m
        budget_ceiling: 5%
      """;

  private static LabStack lab;
  private static LabPorts ports;
  private static Path labDir;

  @TempDir Path dir;

  @BeforeAll
  static void startLab() throws Exception {
    Path prometheus = RequiredBinary.find("prometheus", "FIREDRILL_PROMETHEUS", "prometheus");
    Path alertmanager = RequiredBinary.find("prometheus-alertmanager", "FIREDRILL_ALERTMANAGER", "prometheus-alertmanager");
    ports = LabPorts.free();
    labDir = TempDirs.create("firedrill-accuracy-lab-");
    lab = LabStack.start(new LabStack.Settings(ports, Path.of("fixtures/lab"), Path.of("alert-rules"), labDir,
        LabStackOptions.firedrillCommand(), 20, Duration.ofMinutes(10), Optional.empty(), false),
        prometheus, alertmanager, Clock.system(), line -> {});
  }

  @AfterAll
  static void stopLab() {
    if (lab != null) {
      lab.close();
    }
    TempDirs.delete(labDir);
  }

  private static JsonNode page(Path journal) throws Exception {
    for (JsonNode row : new ObjectMapper().readTree(journal.toFile()).path("detection").path("alerts")) {
      if (row.path("alert").asText().equals("CheckoutErrorBudgetBurn")) {
        return row;
      }
    }
    throw new AssertionError("no detection row for CheckoutErrorBudgetBurn in " + Files.readString(journal));
  }

  @Test
  void predictedTimeToDetectIsWithinTwoEvaluationIntervalsOfTheMeasuredOne() throws Exception {
    // A full 30s window of clean traffic, as the simulation's warm-up gives the model.
    lab.awaitQuery("service:http_requests:rate30s{service=\"checkout\"} > 0 and service:http_errors:rate30s{service=\"checkout\"} == 0",
        Duration.ofSeconds(90));
    Path file = Files.writeString(dir.resolve("accuracy.yaml"), ports.rewrite(EXPERIMENT));
    Path measuredJournal = dir.resolve("measured.json");
    CliRun measured = CliRun.of("run", file.toString(), "--journal", measuredJournal.toString(), "--no-report");
    Path predictedJournal = dir.resolve("predicted.json");
    CliRun predicted = CliRun.of("simulate", file.toString(), "--journal", predictedJournal.toString());

    assertThat(measured.exit()).as(measured.describe()).isEqualTo(ExitCode.DEVIATED);
    assertThat(predicted.exit()).as(predicted.describe()).isEqualTo(ExitCode.DEVIATED);
    JsonNode real = page(measuredJournal);
    JsonNode model = page(predictedJournal);
    double measuredDetect = real.path("time_to_detect_s").asDouble();
    double predictedDetect = model.path("time_to_detect_s").asDouble();
    System.out.printf("time to detect CheckoutErrorBudgetBurn: predicted %.1fs, measured %.1fs (floor %.1fs); "
        + "time to notify: predicted %.3fs, measured %.3fs%n", predictedDetect, measuredDetect,
        real.path("floor_s").asDouble(), model.path("time_to_notify_s").asDouble(),
        real.path("time_to_notify_s").asDouble());
    assertThat(real.path("fired").asBoolean()).as(real.toString()).isTrue();
    assertThat(model.path("fired").asBoolean()).as(model.toString()).isTrue();
    assertThat(Math.abs(predictedDetect - measuredDetect)).as("predicted %s s, measured %s s", predictedDetect,
        measuredDetect).isLessThanOrEqualTo(2.0 * EVALUATION_INTERVAL.toSeconds());
    assertThat(model.path("receivers").toString()).isEqualTo(real.path("receivers").toString());
  }
}
