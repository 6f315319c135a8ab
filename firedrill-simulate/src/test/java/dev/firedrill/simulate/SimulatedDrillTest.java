package dev.firedrill.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.alerting.DetectionRow;
import dev.firedrill.alerting.ObservabilityResult;
import dev.firedrill.embedded.alertmanager.config.AlertmanagerConfig;
import dev.firedrill.embedded.config.ConfigLoader;
import dev.firedrill.engine.ConsoleLines;
import dev.firedrill.engine.JournalFile;
import dev.firedrill.engine.Verdict;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.time.Clock;
import dev.firedrill.time.Durations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Whole drills of the lab's fixtures against the simulated lab, in seconds of real time. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SimulatedDrillTest {

  static final Path PROMETHEUS = Path.of("fixtures/lab/prometheus.yml");
  static final Path ALERTMANAGER = Path.of("fixtures/lab/alertmanager.yml");
  static final Instant START = Instant.parse("2026-11-30T00:00:00Z");

  @TempDir Path dir;

  static Simulator.Outcome simulate(
      Path experiment, LabModel model, Path journal, List<String> lines) throws Exception {
    Simulator.Request request =
        new Simulator.Request(
            ExperimentLoader.load(experiment),
            experiment.toString(),
            model,
            ConfigLoader.load(PROMETHEUS),
            Files.readString(PROMETHEUS),
            AlertmanagerConfig.load(ALERTMANAGER),
            Duration.ofMinutes(1),
            START,
            Optional.of(new JournalFile(journal)),
            null,
            null,
            null);
    return Simulator.run(request, new ConsoleLines(lines::add), lines::add, Clock.system());
  }

  private static DetectionRow row(Simulator.Outcome outcome, String alert) {
    return outcome.result().observability().orElseThrow().rows().stream()
        .filter(r -> r.expectation().alert().equals(alert))
        .findFirst()
        .orElseThrow();
  }

  private static void print(Simulator.Outcome outcome, List<String> lines) {
    lines.forEach(System.out::println);
    System.out.println(
        "simulated "
            + Durations.seconds(outcome.simulated())
            + " of drill in "
            + Durations.seconds(outcome.realTime())
            + " of real time");
  }

  @Test
  void theLatencyDrillHoldsAndPagesNobody() throws Exception {
    List<String> lines = new ArrayList<>();
    Path journal = dir.resolve("latency.json");
    Simulator.Outcome outcome =
        simulate(
            Path.of("fixtures/experiments/payments-latency.yaml"), LabModel.lab(), journal, lines);
    print(outcome, lines);

    assertThat(outcome.result().verdict()).isEqualTo(Verdict.HELD);
    assertThat(outcome.result().observability().orElseThrow().verdict())
        .isEqualTo(ObservabilityResult.Verdict.HELD);
    assertThat(row(outcome, "CheckoutErrorBudgetBurn").fired()).isFalse();
    assertThat(row(outcome, "CheckoutOrdersPending").fired()).isFalse();
    // The method's 20s, then detection watches until the 30s windows of the silent expectations
    // end.
    assertThat(outcome.simulated()).isEqualTo(Duration.ofSeconds(30));
    JsonNode simulation = new ObjectMapper().readTree(journal.toFile()).path("simulation");
    assertThat(simulation.path("simulated_s").asDouble()).isEqualTo(30.0);
    assertThat(simulation.path("payments").path("latency_s").asDouble()).isEqualTo(0.01);
  }

  @Test
  void theOutageDrillIsAbortedByTheBurnRateGuardWhileThePageReachesCheckoutsTeam()
      throws Exception {
    List<String> lines = new ArrayList<>();
    Simulator.Outcome outcome =
        simulate(
            Path.of("fixtures/experiments/payments-outage.yaml"),
            LabModel.lab(),
            dir.resolve("outage.json"),
            lines);
    print(outcome, lines);

    assertThat(outcome.result().verdict()).isEqualTo(Verdict.ABORTED);
    assertThat(outcome.result().reason()).startsWith("burn rate ");
    DetectionRow page = row(outcome, "CheckoutErrorBudgetBurn");
    assertThat(page.fired()).isTrue();
    assertThat(page.detectSource()).isEqualTo("webhook startsAt");
    assertThat(page.receivers()).containsExactly("team-checkout");
    assertThat(page.timeToDetect().orElseThrow())
        .isBetween(page.floor().orElseThrow().value(), Duration.ofSeconds(30));
    assertThat(page.timeToNotify().orElseThrow()).isPositive();
    assertThat(page.runbook().status()).isEqualTo(DetectionRow.Check.Status.RIGHT);
    DetectionRow down = row(outcome, "PaymentsDown");
    assertThat(down.fired()).isFalse();
    assertThat(down.held()).isTrue();
  }
}
