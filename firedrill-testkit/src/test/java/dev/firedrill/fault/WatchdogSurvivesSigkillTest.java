package dev.firedrill.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A STOP's TTL holds when the process that injected it is SIGKILLed: the watchdog is its own
 * process.
 */
class WatchdogSurvivesSigkillTest {

  private final ProcessTable processes = ProcessTable.system();
  private final Decoys decoys = new Decoys();
  private final List<ProcessId> started = new ArrayList<>();
  private Process firedrill;

  @AfterEach
  void cleanUp() {
    if (firedrill != null) {
      firedrill.destroyForcibly();
    }
    Decoys.killAll(processes, started);
    decoys.close();
  }

  @Test
  void pausedProcessResumesAfterFiredrillIsKilled(@TempDir Path dir) throws Exception {
    String token = Decoys.uniqueToken();
    ProcessInfo decoy = decoys.start(token);
    Path out = dir.resolve("out.txt");
    List<String> command =
        WorkerLauncher.current().command(List.of(), InjectThenHang.class, List.of(token, "3000"));
    firedrill =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(dir.resolve("err.txt").toFile())
            .start();

    assertThat(Decoys.waitFor(Duration.ofSeconds(20), () -> read(out).startsWith("injected ")))
        .as("stand-in firedrill reports injection; stderr: %s", read(dir.resolve("err.txt")))
        .isTrue();
    String[] watchdog = read(out).strip().substring("injected ".length()).split(":");
    ProcessId watchdogId = new ProcessId(Long.parseLong(watchdog[0]), Long.parseLong(watchdog[1]));
    started.add(watchdogId);
    assertThat(Decoys.waitFor(Duration.ofSeconds(2), () -> decoys.state(decoy.id()) == 'T'))
        .isTrue();

    firedrill.destroyForcibly();
    assertThat(firedrill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(processes.alive(watchdogId)).isTrue();

    assertThat(Decoys.waitFor(Duration.ofSeconds(15), () -> decoys.state(decoy.id()) != 'T'))
        .isTrue();
    assertThat(decoys.state(decoy.id())).isNotEqualTo('-');
    assertThat(Decoys.waitFor(Duration.ofSeconds(5), () -> !processes.alive(watchdogId))).isTrue();
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (java.io.IOException e) {
      return "";
    }
  }
}
