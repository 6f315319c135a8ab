package dev.firedrill.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.time.Clock;
import dev.firedrill.watchdog.DeadMansSwitch;
import dev.firedrill.watchdog.Holds;
import dev.firedrill.watchdog.WatchdogFiles;
import dev.firedrill.watchdog.WatchdogRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dead-man's switch with real processes: a real watchdog JVM, real stopped decoys, a real
 * stand-in firedrill killed with SIGKILL.
 */
class WatchdogTest {

  private final ProcessTable processes = ProcessTable.system();
  private final Decoys decoys = new Decoys();
  private final List<ProcessId> started = new ArrayList<>();
  private Process firedrill;

  @TempDir Path dir;

  @AfterEach
  void cleanUp() {
    if (firedrill != null) {
      firedrill.destroyForcibly();
    }
    Decoys.killAll(processes, started);
    decoys.close();
  }

  private DeadMansSwitch deadMansSwitch(Duration grace) {
    return new DeadMansSwitch(
        WatchdogFiles.beside(dir.resolve("journal.json")),
        "watchdog-test",
        Duration.ofSeconds(1),
        grace,
        WorkerLauncher.current(),
        processes,
        Clock.system());
  }

  private static Fault stop(String token, Duration ttl) {
    return Faults.create(
        new FaultSpec.ProcessKill(token, "STOP", Optional.empty(), Optional.of(ttl)),
        Contexts.real("watchdog-test", 1, 1));
  }

  @Test
  void aTtlThatRunsOutWhileFiredrillLivesIsUndoneByTheWatchdog() throws Exception {
    String token = Decoys.uniqueToken();
    ProcessInfo decoy = decoys.start(token);
    Fault fault = stop(token, Duration.ofSeconds(2));
    DeadMansSwitch watchdog = deadMansSwitch(Duration.ofSeconds(30));
    fault.plan();
    ProcessId process = watchdog.hold(0, fault).orElseThrow();
    started.add(process);
    fault.inject();
    watchdog.update(0, fault);
    long injectedAt = System.nanoTime();
    assertThat(Decoys.waitFor(Duration.ofSeconds(2), () -> decoys.state(decoy.id()) == 'T'))
        .isTrue();

    // firedrill renews its lease but never reverts: the fault hangs past its ttl.
    assertThat(
            Decoys.waitFor(
                Duration.ofSeconds(15),
                () -> {
                  watchdog.renew();
                  return decoys.state(decoy.id()) != 'T';
                }))
        .as("the watchdog resumed the decoy at the ttl")
        .isTrue();
    System.out.printf(
        "WatchdogTest: decoy resumed %.1f s after injection (ttl 2s)%n",
        (System.nanoTime() - injectedAt) / 1e9);
    assertThat(decoys.state(decoy.id())).isNotEqualTo('-');
    WatchdogRecord.Entry entry = recorded(watchdog.files());
    assertThat(entry.ok()).isTrue();
    assertThat(entry.why()).isEqualTo("its ttl of 2s ran out");
    assertThat(entry.detail())
        .isEqualTo(
            "resumed 1 process (SIGCONT, PID " + decoy.pid() + "); verified: none is stopped");
    assertThat(Decoys.waitFor(Duration.ofSeconds(10), () -> !processes.alive(process)))
        .as("the watchdog exits once nothing is left to hold")
        .isTrue();
  }

  @Test
  void whatFiredrillUndidItselfIsDroppedAndTheWatchdogExits() throws Exception {
    String token = Decoys.uniqueToken();
    ProcessInfo decoy = decoys.start(token);
    Fault fault = stop(token, Duration.ofMinutes(5));
    DeadMansSwitch watchdog = deadMansSwitch(Duration.ofSeconds(30));
    fault.plan();
    ProcessId process = watchdog.hold(0, fault).orElseThrow();
    started.add(process);
    assertThat(Holds.read(watchdog.files().holds()).orElseThrow().pending())
        .as("held before the injection")
        .hasSize(1);
    fault.inject();
    watchdog.update(0, fault);
    fault.revert();
    assertThat(fault.verify().reverted()).isTrue();
    watchdog.release(0);
    watchdog.end();

    assertThat(Decoys.waitFor(Duration.ofSeconds(10), () -> !processes.alive(process)))
        .as("the watchdog exits once nothing is left to hold")
        .isTrue();
    assertThat(decoys.state(decoy.id())).isNotEqualTo('T').isNotEqualTo('-');
    assertThat(WatchdogRecord.read(watchdog.files().record()).entries()).isEmpty();
  }

  @Test
  void aSigkilledFiredrillsStopIsResumedAfterTheLeaseGrace() throws Exception {
    String token = Decoys.uniqueToken();
    ProcessInfo decoy = decoys.start(token);
    Path journal = dir.resolve("journal.json");
    Path out = dir.resolve("out.txt");
    List<String> command =
        WorkerLauncher.current()
            .command(
                List.of(), HoldThenHang.class, List.of(token, journal.toString(), "60000", "2000"));
    firedrill =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(dir.resolve("err.txt").toFile())
            .start();
    assertThat(Decoys.waitFor(Duration.ofSeconds(30), () -> read(out).startsWith("injected ")))
        .as("stand-in firedrill reports injection; stderr: %s", read(dir.resolve("err.txt")))
        .isTrue();
    String[] id = read(out).strip().substring("injected ".length()).split(":");
    ProcessId watchdog = new ProcessId(Long.parseLong(id[0]), Long.parseLong(id[1]));
    started.add(watchdog);
    assertThat(Decoys.waitFor(Duration.ofSeconds(2), () -> decoys.state(decoy.id()) == 'T'))
        .isTrue();

    firedrill.destroyForcibly();
    assertThat(firedrill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    long killedAt = System.nanoTime();
    assertThat(processes.alive(watchdog)).as("the watchdog outlives firedrill").isTrue();

    assertThat(Decoys.waitFor(Duration.ofSeconds(20), () -> decoys.state(decoy.id()) != 'T'))
        .as("the watchdog resumed the decoy after the lease's grace")
        .isTrue();
    System.out.printf(
        "WatchdogTest: decoy resumed %.1f s after firedrill's SIGKILL (grace 2s)%n",
        (System.nanoTime() - killedAt) / 1e9);
    WatchdogRecord.Entry entry = recorded(WatchdogFiles.beside(journal));
    assertThat(entry.ok()).isTrue();
    assertThat(entry.why()).isEqualTo("firedrill did not renew its lease for 2s");
    assertThat(Decoys.waitFor(Duration.ofSeconds(10), () -> !processes.alive(watchdog)))
        .as("the watchdog exits once nothing is left to hold")
        .isTrue();
  }

  @Test
  void theGraceIsThreeIntervalsAndAtLeastItsFloor() {
    assertThat(DeadMansSwitch.grace(Duration.ofSeconds(5), DeadMansSwitch.MIN_GRACE))
        .isEqualTo(Duration.ofSeconds(30));
    assertThat(DeadMansSwitch.grace(Duration.ofSeconds(15), DeadMansSwitch.MIN_GRACE))
        .isEqualTo(Duration.ofSeconds(45));
    assertThat(DeadMansSwitch.grace(Duration.ofMillis(100), Duration.ZERO))
        .as("a test's floor never goes below 1s")
        .isEqualTo(Duration.ofSeconds(1));
  }

  /** The watchdog records after it verified: the decoy may run a moment before the record. */
  private static WatchdogRecord.Entry recorded(WatchdogFiles files) throws Exception {
    assertThat(
            Decoys.waitFor(
                Duration.ofSeconds(5),
                () -> {
                  try {
                    return WatchdogRecord.read(files.record()).last(0).isPresent();
                  } catch (java.io.IOException e) {
                    return false;
                  }
                }))
        .as("the watchdog recorded what it did in %s", files.record())
        .isTrue();
    return WatchdogRecord.read(files.record()).last(0).orElseThrow();
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (java.io.IOException e) {
      return "";
    }
  }
}
