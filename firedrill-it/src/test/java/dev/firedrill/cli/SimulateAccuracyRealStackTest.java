package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.testing.PaymentsOutageDrill;
import dev.firedrill.testing.RealLab;
import dev.firedrill.testing.Stacks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The prediction against the measurement, on each pair of {@link Stacks}: the same drill run
 * against the whole lab (the real prometheus and prometheus-alertmanager, 1 s scrape and
 * evaluation, the repo's rules and route tree) and simulated; predicted and measured time to detect
 * must agree within two evaluation intervals. {@code simulate} reads the lab's Prometheus version
 * from its buildinfo, so the 2.42 lab is predicted in mode 2 and the 3.x lab in mode 3, and the
 * phases of the lab's rule groups and scrapes from its API, which the test checks it said: the
 * groups' offsets hash their files' paths in the lab's temp dir, and on phases of its own a
 * prediction could differ from a measurement by nearly three intervals.
 */
class SimulateAccuracyRealStackTest {

  private static final Duration EVALUATION_INTERVAL = Duration.ofSeconds(1);

  @Nested
  @Execution(ExecutionMode.CONCURRENT)
  @ResourceLock("SimulateAccuracyRealStackTest.Stable")
  class Stable extends Accuracy {
    Stable() {
      super(Stacks::stable, 2);
    }
  }

  @Nested
  @Execution(ExecutionMode.CONCURRENT)
  @ResourceLock("SimulateAccuracyRealStackTest.Current")
  class Current extends Accuracy {
    Current() {
      super(Stacks::current, 3);
    }
  }

  @TestInstance(TestInstance.Lifecycle.PER_CLASS) // one lab per pair
  abstract static class Accuracy {

    private final Supplier<Stacks.Pair> pair;
    private final int major;
    private RealLab lab;

    @TempDir Path dir;

    Accuracy(Supplier<Stacks.Pair> pair, int major) {
      this.pair = pair;
      this.major = major;
    }

    @BeforeAll
    void startLab() throws Exception {
      lab = RealLab.start(pair.get(), "accuracy", LabStackOptions.firedrillCommand());
    }

    @AfterAll
    void stopLab() {
      if (lab != null) {
        lab.close();
      }
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
          CliRun.of(
              "run",
              file.toString(),
              "--journal",
              measuredJournal.toString(),
              "--history",
              CliRun.historyBeside(measuredJournal),
              "--no-report");
      Path predictedJournal = dir.resolve("predicted.json");
      CliRun predicted =
          CliRun.of("simulate", file.toString(), "--journal", predictedJournal.toString());

      assertThat(measured.exit()).as(measured.describe()).isEqualTo(ExitCode.DEVIATED);
      assertThat(predicted.exit()).as(predicted.describe()).isEqualTo(ExitCode.DEVIATED);
      assertThat(predicted.out())
          .as("simulate answers as the lab's Prometheus")
          .contains("SIMULATION: PromQL of Prometheus " + major + " (as ")
          .contains(" is Prometheus " + major + ".")
          .contains("SIMULATION: rule groups and scrapes on the phases of http://127.0.0.1:");
      JsonNode real = page(measuredJournal);
      JsonNode model = page(predictedJournal);
      double measuredDetect = real.path("time_to_detect_s").asDouble();
      double predictedDetect = model.path("time_to_detect_s").asDouble();
      System.out.printf(
          "%s: time to detect CheckoutErrorBudgetBurn: predicted %.1fs (mode %d), measured %.1fs"
              + " (floor %.1fs); time to notify: predicted %.3fs, measured %.3fs%n",
          pair.get(),
          predictedDetect,
          major,
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
  }
}
