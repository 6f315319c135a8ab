package dev.firedrill.fault;

import static dev.firedrill.time.Durations.format;

import dev.firedrill.experiment.FaultSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Signals the processes whose command line contains {@code match}. Every signal but STOP ends or
 * pokes a process and cannot be taken back; STOP pauses it until revert or the watchdog (which
 * holds a STOP, as every {@link TtlEnforcer#WATCHDOG} fault, from before it is sent) sends CONT.
 */
public final class ProcessKillFault implements Fault {

  static final int SHOWN_COMMAND = 120;
  static final Duration RESUME_LIMIT = Duration.ofSeconds(2);

  private final FaultSpec.ProcessKill spec;
  private final FaultContext context;
  private List<ProcessInfo> planned;
  private Signal recordedSignal;
  private final List<ProcessId> targets = new ArrayList<>();
  private final boolean restored;

  /** How many processes the last revert sent CONT to; -1 before any revert. */
  private int resumed = -1;

  ProcessKillFault(FaultSpec.ProcessKill spec, FaultContext context) {
    this(spec, context, false);
  }

  private ProcessKillFault(FaultSpec.ProcessKill spec, FaultContext context, boolean restored) {
    this.spec = spec;
    this.context = context;
    this.restored = restored;
  }

  static ProcessKillFault restore(
      FaultSpec.ProcessKill spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    ProcessKillFault fault = new ProcessKillFault(spec, context, true);
    fault.recordedSignal = Signal.parseFaultSignal(StateValues.text(state.get("signal"), "signal"));
    List<?> recorded = StateValues.list(state.get("targets"), "targets");
    for (int i = 0; i < recorded.size(); i++) {
      fault.targets.add(ProcessId.fromState(recorded.get(i), "targets[" + i + "]"));
    }
    return fault;
  }

  @Override
  public FaultSpec.ProcessKill spec() {
    return spec;
  }

  @Override
  public synchronized List<String> plan() throws FaultException {
    Signal signal = Signal.parseFaultSignal(spec.signal());
    Duration ttl = FaultChecks.check(spec, context.blastRadius(), context.methodDuration());
    planned =
        new ProcessSelector(context.processes(), ProcessHandle.current().pid())
            .select(spec, context.blastRadius().maxProcesses());
    List<String> actions = new ArrayList<>();
    if (signal == Signal.STOP) {
      actions.add(
          "hold in the watchdog: SIGCONT to PID "
              + String.join(", ", planned.stream().map(p -> Long.toString(p.pid())).toList())
              + " at the ttl of "
              + format(ttl)
              + ", or when firedrill stops renewing its lease");
    }
    for (ProcessInfo process : planned) {
      actions.add(
          "send " + signal.sigName() + " to PID " + process.pid() + " (" + shown(process) + ")");
    }
    return List.copyOf(actions);
  }

  private static String shown(ProcessInfo process) {
    String command = process.commandLine();
    return command.length() <= SHOWN_COMMAND
        ? command
        : command.substring(0, SHOWN_COMMAND - 3) + "...";
  }

  /** Signals exactly what {@link #plan()} listed, skipping any process that has since gone. */
  @Override
  public synchronized void inject() throws FaultException {
    if (restored || recordedSignal != null) {
      throw new FaultException(
          "process-kill: already injected"
              + (restored ? " (restored from the journal)" : "")
              + "; expected one inject per fault");
    }
    if (planned == null) {
      plan();
    }
    Signal signal = Signal.parseFaultSignal(spec.signal());
    FaultChecks.check(spec, context.blastRadius(), context.methodDuration());
    recordedSignal = signal;
    List<ProcessId> ids = planned.stream().map(ProcessInfo::id).toList();
    for (ProcessId id : ids) {
      // Recorded before the signal, so a failure half-way still reverts what was paused.
      targets.add(id);
      context.processes().signal(id, signal);
    }
  }

  @Override
  public synchronized void revert() throws FaultException {
    if (recordedSignal != Signal.STOP) {
      return;
    }
    List<String> failures = new ArrayList<>();
    resumed = 0;
    for (ProcessId id : targets) {
      try {
        if (context.processes().signal(id, Signal.CONT)) {
          resumed++;
        }
      } catch (FaultException e) {
        failures.add(e.getMessage());
      }
    }
    try {
      Waits.until(context.clock(), RESUME_LIMIT, () -> stillStopped().isEmpty());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FaultException(
          "process-kill: interrupted while resuming PIDs " + Terminator.pids(targets), e);
    }
    List<ProcessId> stopped = stillStopped();
    if (!failures.isEmpty() || !stopped.isEmpty()) {
      // The watchdog keeps its hold: it is the last guard for whatever we could not resume.
      throw new FaultException(
          "process-kill: still stopped after SIGCONT: PIDs "
              + Terminator.pids(stopped)
              + (failures.isEmpty() ? "" : "; " + String.join("; ", failures)));
    }
  }

  private List<ProcessId> stillStopped() {
    return targets.stream()
        .filter(id -> context.processes().find(id).map(ProcessInfo::stopped).orElse(false))
        .toList();
  }

  @Override
  public synchronized Verification verify() {
    Signal signal = recordedSignal != null ? recordedSignal : parsedOrNull();
    if (signal != Signal.STOP) {
      String sent =
          targets.isEmpty()
              ? "no process was signalled"
              : (signal == null ? "signal" : signal.sigName())
                  + " sent to PID "
                  + Terminator.pids(targets);
      return Verification.reverted(
          "nothing to undo: "
              + sent
              + "; a supervisor restarts the process, or nothing does; the after-measurement shows which");
    }
    List<ProcessId> stopped = stillStopped();
    if (stopped.isEmpty() && resumed >= 0) {
      return Verification.reverted(
          "resumed "
              + resumed
              + (resumed == 1 ? " process" : " processes")
              + (targets.isEmpty()
                  ? " (SIGCONT)"
                  : " (SIGCONT, PID " + Terminator.pids(targets) + ")")
              + "; verified: none is stopped");
    }
    if (stopped.isEmpty()) {
      return Verification.reverted(
          targets.isEmpty()
              ? "no process was stopped"
              : "no process left stopped: PID " + Terminator.pids(targets) + " running or gone");
    }
    return Verification.remaining("still stopped (state T): PID " + Terminator.pids(stopped));
  }

  private Signal parsedOrNull() {
    try {
      return Signal.parseFaultSignal(spec.signal());
    } catch (FaultException e) {
      return null;
    }
  }

  @Override
  public synchronized String manualRevertCommand() {
    Signal signal = recordedSignal != null ? recordedSignal : parsedOrNull();
    if (signal != Signal.STOP) {
      return "# nothing to undo: "
          + (signal == null ? "the signal" : signal.sigName())
          + " cannot be taken back";
    }
    List<ProcessId> ids =
        !targets.isEmpty()
            ? targets
            : planned == null ? List.of() : planned.stream().map(ProcessInfo::id).toList();
    return ids.isEmpty() ? "# no process was stopped" : "kill -s CONT " + Terminator.pids(ids);
  }

  @Override
  public synchronized Map<String, Object> state() {
    Map<String, Object> state = new LinkedHashMap<>();
    Signal signal = recordedSignal != null ? recordedSignal : parsedOrNull();
    state.put("signal", signal == null ? spec.signal() : signal.name());
    // Before injection a STOP's targets are the planned ones: the watchdog holds them from then on,
    // and CONT to a process that was never stopped changes nothing.
    List<ProcessId> ids =
        targets.isEmpty() && recordedSignal == null && planned != null && signal == Signal.STOP
            ? planned.stream().map(ProcessInfo::id).toList()
            : targets;
    state.put("targets", ids.stream().map(ProcessId::toState).toList());
    return state;
  }

  /**
   * A STOP's planned targets, before the first signal: SIGCONT to one that was never stopped
   * changes nothing. Other signals cannot be undone, so there is nothing to find.
   */
  @Override
  public synchronized Optional<Map<String, Object>> stateBeforeInjection() {
    return parsedOrNull() == Signal.STOP ? Optional.of(state()) : Optional.empty();
  }

  /** A STOP is held by the watchdog; every other signal leaves nothing to undo. */
  @Override
  public TtlEnforcer ttlEnforcer() {
    return parsedOrNull() == Signal.STOP ? TtlEnforcer.WATCHDOG : TtlEnforcer.NONE;
  }
}
