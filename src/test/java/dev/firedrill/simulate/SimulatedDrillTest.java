package dev.firedrill.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.embedded.alertmanager.config.AlertmanagerConfig;
import dev.firedrill.embedded.config.ConfigLoader;
import dev.firedrill.engine.DrillEvent;
import dev.firedrill.engine.JournalFile;
import dev.firedrill.engine.Verdict;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.time.Clock;
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

  static Simulator.Outcome simulate(Path experiment, LabModel model, Path journal, List<String> lines) throws Exception {
    Simulator.Request request = new Simulator.Request(ExperimentLoader.load(experiment), experiment.toString(), model,
        ConfigLoader.load(PROMETHEUS), Files.readString(PROMETHEUS), AlertmanagerConfig.load(ALERTMANAGER),
        Duration.ofMinutes(1), START, Optional.of(new JournalFile(journal)), null);
    return Simulator.run(request, (DrillEvent e) -> lines.add(e.line()), lines::add, Clock.system());
  }

  @Test
  void theLatencyDrillHoldsAndPagesNobody() throws Exception {
    List<String> lines = new ArrayList<>();
    Simulator.Outcome outcome = simulate(Path.of("fixtures/experiments/payments-latency.yaml"), LabModel.lab(),
        dir.resolve("latency.json"), lines);
    lines.forEach(System.out::println);
    System.out.println("simulated " + outcome.simulated() + " in " + outcome.realTime().toMillis() + " ms of real time");

    assertThat(outcome.result().verdict()).isEqualTo(Verdict.HELD);
  }

  @Test
  void theOutageDrillIsAbortedByTheBurnRateGuardAndPagesCheckout() throws Exception {
    List<String> lines = new ArrayList<>();
    Simulator.Outcome outcome = simulate(Path.of("fixtures/experiments/payments-outage.yaml"), LabModel.lab(),
        dir.resolve("outage.json"), lines);
    lines.forEach(System.out::println);
    System.out.println("simulated " + outcome.simulated() + " in " + outcome.realTime().toMillis() + " ms of real time");

    assertThat(outcome.result().verdict()).isEqualTo(Verdict.ABORTED);
  }
}
