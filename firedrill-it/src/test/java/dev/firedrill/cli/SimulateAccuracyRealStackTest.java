package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.testing.PaymentsOutageDrill;
import dev.firedrill.testing.RealLab;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The prediction against the measurement: the same drill run against the whole lab (the real
 * prometheus and prometheus-alertmanager, 1 s scrape and evaluation, the repo's rules and route
 * tree) and simulated; predicted and measured time to detect must agree within two evaluation
 * intervals.
 */
class SimulateAccuracyRealStackTest {

  private static final Duration EVALUATION_INTERVAL = Duration.ofSeconds(1);

  private static RealLab lab;

  @TempDir Path dir;

  @BeforeAll
  static void startLab() throws Exception {
    lab = RealLab.start("accuracy", LabStackOptions.firedrillCommand());
  }

  @AfterAll
  static void stopLab() {
    if (lab != null) {
      lab.close();
    }
  }

  private static JsonNode page(Path journal) throws Exception {
    for (JsonNode row :
        new ObjectMapper().readTree(journal.toFile()).path("detection").path("alerts")) {
      if (row.path("alert").asText().equals("CheckoutErrorBudgetBurn")) {
        return row;
      }
    }
    throw new AssertionError(
        "no detection row for CheckoutErrorBudgetBurn in " + Files.readString(journal));
  }

  @Test
  void predictedTimeToDetectIsWithinTwoEvaluationIntervalsOfTheMeasuredOne() throws Exception {
    // A full 30s window of clean traffic, as the simulation's warm-up gives the model.
    lab.stack()
        .awaitQuery(
            "service:http_requests:rate30s{service=\"checkout\"} > 0 and service:http_errors:rate30s{service=\"checkout\"} == 0",
            Duration.ofSeconds(90));
    Path file =
        Files.writeString(
            dir.resolve("accuracy.yaml"),
            lab.ports()
                .rewrite(
                    PaymentsOutageDrill.experiment(
                        "accuracy-payments-503",
                        "Payments answering 503 pages checkout's team",
                        PaymentsOutageDrill.PAGE,
                        Duration.ofSeconds(8))));
    Path measuredJournal = dir.resolve("measured.json");
    CliRun measured =
        CliRun.of("run", file.toString(), "--journal", measuredJournal.toString(), "--no-report");
    Path predictedJournal = dir.resolve("predicted.json");
    CliRun predicted =
        CliRun.of("simulate", file.toString(), "--journal", predictedJournal.toString());

    assertThat(measured.exit()).as(measured.describe()).isEqualTo(ExitCode.DEVIATED);
    assertThat(predicted.exit()).as(predicted.describe()).isEqualTo(ExitCode.DEVIATED);
    JsonNode real = page(measuredJournal);
    JsonNode model = page(predictedJournal);
    double measuredDetect = real.path("time_to_detect_s").asDouble();
    double predictedDetect = model.path("time_to_detect_s").asDouble();
    System.out.printf(
        "time to detect CheckoutErrorBudgetBurn: predicted %.1fs, measured %.1fs (floor %.1fs); "
            + "time to notify: predicted %.3fs, measured %.3fs%n",
        predictedDetect,
        measuredDetect,
        real.path("floor_s").asDouble(),
        model.path("time_to_notify_s").asDouble(),
        real.path("time_to_notify_s").asDouble());
    assertThat(real.path("fired").asBoolean()).as(real.toString()).isTrue();
    assertThat(model.path("fired").asBoolean()).as(model.toString()).isTrue();
    assertThat(Math.abs(predictedDetect - measuredDetect))
        .as("predicted %s s, measured %s s", predictedDetect, measuredDetect)
        .isLessThanOrEqualTo(2.0 * EVALUATION_INTERVAL.toSeconds());
    assertThat(model.path("receivers").toString()).isEqualTo(real.path("receivers").toString());
  }
}
