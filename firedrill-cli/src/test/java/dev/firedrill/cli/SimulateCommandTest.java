package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What simulate refuses before anything runs, and the dates its journal carries; whole simulated
 * drills are in SimulatedDrillTest.
 */
class SimulateCommandTest {

  @TempDir Path dir;

  @Test
  void aModelFileWithAnUnknownKeyIsRefusedNamingItsNearestKey() throws Exception {
    Path model = Files.writeString(dir.resolve("model.yaml"), "payments: {latncy: 40ms}\n");

    CliRun run =
        CliRun.of(
            "simulate", "fixtures/experiments/payments-outage.yaml", "--model", model.toString());

    assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.INVALID);
    assertThat(run.err())
        .contains(
            model
                + ": /payments/latncy: unknown key; did you mean \"latency\"? (line 1, column 12)");
  }

  @Test
  void aMissingModelFileSaysSoAndWhereModelsAreDescribed() {
    Path model = dir.resolve("none.yaml");

    CliRun run =
        CliRun.of(
            "simulate", "fixtures/experiments/payments-outage.yaml", "--model", model.toString());

    assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.INVALID);
    assertThat(run.err())
        .contains(model + ": cannot read: no such file (expected a model file: docs/simulate.md)");
  }

  @Test
  void aDurationFlagThatIsNoDurationIsRefused() {
    CliRun run =
        CliRun.of(
            "simulate", "fixtures/experiments/payments-outage.yaml", "--checkout-timeout", "soon");

    assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.INVALID);
    assertThat(run.err())
        .contains("firedrill simulate: --checkout-timeout soon: expected a duration such as 300ms");
  }

  @Test
  void aSimulatedDrillIsDatedInThePastNeverInTheFuture() throws Exception {
    Path journal = dir.resolve("sim.json");
    Instant before = Instant.now();

    CliRun run =
        CliRun.of(
            "simulate",
            "fixtures/experiments/payments-outage.yaml",
            "--journal",
            journal.toString());
    Instant after = Instant.now();

    assertThat(run.out()).as(run.describe()).contains("SIMULATION:");
    JsonNode written = new ObjectMapper().readTree(journal.toFile());
    Instant started = Instant.parse(written.get("started_at").asText());
    Instant finished = Instant.parse(written.get("finished_at").asText());
    assertThat(finished).as("the drill's end").isBefore(after);
    // In the past, but the recent past: a prediction made now.
    assertThat(started).isAfter(before.minusSeconds(3600));
    assertThat(written.has("simulation")).isTrue();
  }
}
