package dev.firedrill.fault;

import dev.firedrill.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Ends helper processes: TERM, a grace period, then KILL. */
final class Terminator {

  static final Duration GRACE = Duration.ofSeconds(2);
  // SIGKILL cannot be caught, but the kernel needs a moment to tear a JVM down.
  static final Duration AFTER_KILL = Duration.ofSeconds(2);

  private final ProcessTable processes;
  private final Clock clock;

  Terminator(ProcessTable processes, Clock clock) {
    this.processes = processes;
    this.clock = clock;
  }

  /** Returns the processes still alive afterwards; empty means all are gone. */
  List<ProcessId> terminate(List<ProcessId> ids) throws FaultException {
    try {
      for (ProcessId id : ids) {
        processes.signal(id, Signal.TERM);
      }
      if (!Waits.until(clock, GRACE, () -> alive(ids).isEmpty())) {
        for (ProcessId id : alive(ids)) {
          processes.signal(id, Signal.KILL);
        }
        Waits.until(clock, AFTER_KILL, () -> alive(ids).isEmpty());
      }
      return alive(ids);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FaultException("interrupted while ending PIDs " + pids(ids), e);
    }
  }

  private List<ProcessId> alive(List<ProcessId> ids) {
    List<ProcessId> alive = new ArrayList<>();
    for (ProcessId id : ids) {
      if (processes.alive(id)) {
        alive.add(id);
      }
    }
    return alive;
  }

  static String pids(List<ProcessId> ids) {
    return String.join(" ", ids.stream().map(id -> Long.toString(id.pid())).toList());
  }
}
