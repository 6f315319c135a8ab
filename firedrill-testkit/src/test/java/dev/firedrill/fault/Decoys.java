package dev.firedrill.fault;

import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Real {@code sleep} processes for process-kill to hit. Started through {@code setsid -f} so they
 * are not descendants of the test JVM, which process-kill spares as it spares firedrill's own.
 */
final class Decoys implements AutoCloseable {

  private final ProcessTable processes = ProcessTable.system();
  private final List<ProcessId> started = new ArrayList<>();

  /** A token unique to this run, at least 4 characters, suitable as a match. */
  static String uniqueToken() {
    return "3600." + (100_000_000 + ThreadLocalRandom.current().nextInt(900_000_000));
  }

  /**
   * Starts {@code sleep <token>} outside the test JVM's process tree and returns it once visible.
   */
  ProcessInfo start(String token) throws Exception {
    Process setsid =
        new ProcessBuilder("setsid", "-f", "sleep", token)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    setsid.waitFor();
    for (int i = 0; i < 100; i++) {
      Optional<ProcessInfo> decoy =
          processes.list().stream()
              .filter(p -> p.args().equals(List.of("sleep", token)))
              .filter(p -> started.stream().noneMatch(s -> s.equals(p.id())))
              .findFirst();
      if (decoy.isPresent()) {
        started.add(decoy.get().id());
        return decoy.get();
      }
      Thread.sleep(50);
    }
    throw new AssertionError("decoy \"sleep " + token + "\" did not appear within 5s");
  }

  /** A decoy as a direct child of the test JVM, which process-kill must never select. */
  ProcessInfo startChild(String token) throws Exception {
    Process child =
        new ProcessBuilder("sleep", token)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    ProcessInfo info = processes.find(child.pid()).orElseThrow();
    started.add(info.id());
    return info;
  }

  char state(ProcessId id) {
    return processes.find(id).map(ProcessInfo::state).orElse('-');
  }

  static boolean waitFor(Duration limit, java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() - deadline < 0) {
      if (condition.getAsBoolean()) {
        return true;
      }
      Thread.sleep(50);
    }
    return condition.getAsBoolean();
  }

  /** Kills every process in {@code ids} still running under its recorded start time. */
  static void killAll(ProcessTable processes, List<ProcessId> ids) {
    for (ProcessId id : ids) {
      if (processes.alive(id)) {
        ProcessHandle.of(id.pid()).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  @Override
  public void close() {
    killAll(processes, started);
  }
}
