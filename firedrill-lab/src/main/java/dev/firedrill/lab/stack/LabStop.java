package dev.firedrill.lab.stack;

import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.ProcessId;
import dev.firedrill.fault.ProcessTable;
import dev.firedrill.fault.Signal;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Stops the lab a {@link LabState} names: each process TERM, then KILL after {@link #GRACE}, in the
 * reverse of their start order, so Prometheus goes first and does not record the services'
 * disappearance as an outage worth alerting on.
 */
public final class LabStop {

  /** How long a process has to exit on TERM before it gets KILL. */
  public static final Duration GRACE = Duration.ofSeconds(5);

  private static final Duration POLL = Duration.ofMillis(100);
  private static final Duration AFTER_KILL = Duration.ofMillis(200);

  /** What stopping did to one process. */
  public record Step(LabState.Process process, boolean stopped) {

    public String line() {
      long pid = process.id().pid();
      return stopped
          ? process.name() + " stopped"
          : process.name() + " (PID " + pid + ") is still running; stop it by hand: kill -9 " + pid;
    }
  }

  /** How {@code lab down} ended. */
  public sealed interface Outcome {

    /** No state file: nothing was up, nothing was done. */
    record NotUp(Path stateFile) implements Outcome {}

    /** Every process is gone and the state file with them; the directory keeps the logs. */
    record Down(Path stateDirectory) implements Outcome {}

    /**
     * These processes outlived TERM and KILL (or refused them): a human must end them. The state
     * file stays, so {@code lab down} can be run again.
     */
    record StillRunning(List<LabState.Process> left) implements Outcome {

      public StillRunning {
        left = List.copyOf(left);
      }
    }
  }

  private final ProcessTable table;
  private final Clock clock;

  public LabStop(ProcessTable table, Clock clock) {
    this.table = table;
    this.clock = clock;
  }

  /** Stops every process of {@code state}, telling {@code progress} of each as it is done. */
  public Outcome stop(LabState state, Consumer<Step> progress)
      throws IOException, InterruptedException {
    if (!state.exists()) {
      return new Outcome.NotUp(state.file());
    }
    List<LabState.Process> processes = state.read();
    List<LabState.Process> left = new ArrayList<>();
    for (int i = processes.size() - 1; i >= 0; i--) {
      LabState.Process process = processes.get(i);
      Step step = new Step(process, stop(process.id()));
      if (!step.stopped()) {
        left.add(process);
      }
      progress.accept(step);
    }
    if (!left.isEmpty()) {
      return new Outcome.StillRunning(left);
    }
    state.delete();
    return new Outcome.Down(state.directory());
  }

  /**
   * TERM, up to {@link #GRACE}, then KILL; a PID whose start time changed is someone else's, and
   * already gone.
   */
  private boolean stop(ProcessId id) throws InterruptedException {
    try {
      if (!table.signal(id, Signal.TERM)) {
        return true;
      }
      long deadline = clock.nanoTime() + GRACE.toNanos();
      while (table.alive(id) && clock.nanoTime() - deadline < 0) {
        clock.sleep(POLL);
      }
      if (table.alive(id)) {
        table.signal(id, Signal.KILL);
        clock.sleep(AFTER_KILL);
      }
      return !table.alive(id);
    } catch (FaultException e) {
      // The kernel refused the signal (another user's process): it runs on, and the outcome says
      // so.
      return false;
    }
  }
}
