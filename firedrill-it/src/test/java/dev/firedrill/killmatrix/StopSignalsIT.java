package dev.firedrill.killmatrix;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.testing.DemoStack;
import dev.firedrill.testing.FiredrillJar;
import dev.firedrill.testing.Procs;
import dev.firedrill.testing.Results;
import dev.firedrill.testing.SyntheticService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * SIGINT once, SIGINT twice (an impatient operator), SIGTERM (a CI cancel), while both faults are
 * on: the rollback completes and is verified, the drill ends aborted with exit 3, nothing is left.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StopSignalsIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension static final DemoStack stack = new DemoStack(List.of(MatrixLab.RULES));

  @TempDir Path dir;

  @BeforeEach
  void steadyState() {
    stack
        .prometheus()
        .awaitQuery(SyntheticService.ERROR_RATIO, Results.valueNear(0, 0), Duration.ofSeconds(30));
  }

  @ParameterizedTest(name = "{0} x{1}")
  @CsvSource({"INT, 1", "INT, 2", "TERM, 1"})
  void theRollbackCompletesAndTheDrillEndsAborted(String signal, int times) throws Exception {
    try (MatrixLab lab = new MatrixLab(stack, dir)) {
      String id = "sig-" + signal.toLowerCase() + "-" + times;
      MatrixLab.Props props =
          lab.props(Files.createDirectories(dir.resolve(id)), id, FaultKind.PROCESS_STOP);
      try {
        Path journal = props.dir().resolve("journal.json");
        Process firedrill =
            FiredrillJar.start(
                props.dir(),
                props.dir().resolve("run.out"),
                props.dir().resolve("run.err"),
                Trial.JVM,
                "run",
                lab.experiment(props).toString(),
                "--journal",
                journal.toString());
        assertThat(
                Procs.waitFor(
                    Duration.ofSeconds(40),
                    () -> read(journal).map(KillPoint.DURING_OBSERVE.reached::test).orElse(false)))
            .as("both faults on; %s", output(props))
            .isTrue();
        assertThat(lab.faultsLeft(props, true)).as("the faults are on").hasSize(2);
        for (int i = 0; i < times; i++) {
          Process kill =
              new ProcessBuilder("kill", "-s", signal, Long.toString(firedrill.pid())).start();
          assertThat(kill.waitFor()).isZero();
          TimeUnit.MILLISECONDS.sleep(30);
        }
        assertThat(firedrill.waitFor(60, TimeUnit.SECONDS)).as(output(props)).isTrue();

        assertThat(firedrill.exitValue()).as(output(props)).isEqualTo(3);
        JsonNode after = read(journal).orElseThrow();
        assertThat(after.path("verdict").asText()).as("%s", after).isEqualTo("aborted");
        for (JsonNode fault : after.path("faults")) {
          assertThat(fault.path("reverted").asBoolean()).as("%s", fault).isTrue();
          assertThat(fault.path("revert").path("ok").asBoolean()).as("%s", fault).isTrue();
        }
        assertThat(lab.faultsLeft(props, true)).as("right after exit 3").isEmpty();
        assertThat(
                Procs.waitFor(
                    Trial.GRACE.plusSeconds(10),
                    () -> lab.leftovers(props, read(journal), true).isEmpty()))
            .as(
                "the watchdog ends once the rollback released it: %s",
                lab.leftovers(props, read(journal), true))
            .isTrue();
      } finally {
        lab.release(props);
      }
    }
  }

  private static Optional<JsonNode> read(Path journal) {
    try {
      return Files.exists(journal)
          ? Optional.of(JSON.readTree(journal.toFile()))
          : Optional.empty();
    } catch (java.io.IOException e) {
      return Optional.empty();
    }
  }

  private static String output(MatrixLab.Props props) {
    try {
      return "stdout: "
          + Files.readString(props.dir().resolve("run.out"))
          + "\nstderr: "
          + Files.readString(props.dir().resolve("run.err"));
    } catch (java.io.IOException e) {
      return "(no output: " + e + ")";
    }
  }
}
