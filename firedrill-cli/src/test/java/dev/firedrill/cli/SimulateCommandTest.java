package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What simulate refuses before anything runs; whole simulated drills are in SimulatedDrillTest. */
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
  void aDurationFlagThatIsNoDurationIsRefused() {
    CliRun run =
        CliRun.of(
            "simulate", "fixtures/experiments/payments-outage.yaml", "--checkout-timeout", "soon");

    assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.INVALID);
    assertThat(run.err())
        .contains("firedrill simulate: --checkout-timeout soon: expected a duration such as 300ms");
  }
}
