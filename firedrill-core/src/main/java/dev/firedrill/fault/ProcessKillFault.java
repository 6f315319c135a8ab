package dev.firedrill.fault;

import static dev.firedrill.time.Durations.format;

import dev.firedrill.experiment.FaultSpec;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Signals the processes whose command line contains {@code match}. Every signal but STOP ends or
 * pokes a process and cannot be taken back; STOP pauses it until revert or the watchdog sends CONT.
 */
public final class ProcessKillFault implements Fault {

  static final int SHOWN_COMMAND = 120;
  static final Duration RESUME_LIMIT = Duration.ofSeconds(2);

  private final FaultSpec.ProcessKill spec;
  private final FaultContext context;
  private List<ProcessInfo> planned;
  private Signal recordedSignal;
  private final List<ProcessId> targets = new ArrayList<>();
  private ProcessId watchdog;
  private final boolean restored;

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
    if (state.get("watchdog") != null) {
      fault.watchdog = ProcessId.fromState(state.get("watchdog"), "watchdog");
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
          "start a watchdog that sends SIGCONT to PID "
              + String.join(", ", planned.stream().map(p -> Long.toString(p.pid())).toList())
              + " after "
              + format(ttl)
              + ", even if firedrill dies");
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
    Duration ttl = FaultChecks.check(spec, context.blastRadius(), context.methodDuration());
    recordedSignal = signal;
    List<ProcessId> ids = planned.stream().map(ProcessInfo::id).toList();
    if (signal == Signal.STOP) {
      String seconds = BigDecimal.valueOf(ttl.toMillis(), 3).stripTrailingZeros().toPlainString();
      watchdog =
          new WatchdogStarter(context)
              .start(WatchdogStarter.args(seconds, context.experimentId(), ids));
    }
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
    for (ProcessId id : targets) {
      try {
        context.processes().signal(id, Signal.CONT);
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
      // The watchdog stays: it is the last guard for whatever we could not resume.
      throw new FaultException(
          "process-kill: still stopped after SIGCONT: PIDs "
              + Terminator.pids(stopped)
              + (failures.isEmpty() ? "" : "; " + String.join("; ", failures)));
    }
    if (watchdog != null) {
      List<ProcessId> left =
          new Terminator(context.processes(), context.clock()).terminate(List.of(watchdog));
      if (!left.isEmpty()) {
        throw new FaultException(
            "process-kill: watchdog PID " + watchdog.pid() + " still alive after SIGKILL");
      }
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
    state.put("targets", targets.stream().map(ProcessId::toState).toList());
    if (watchdog != null) {
      state.put("watchdog", watchdog.toState());
    }
    return state;
  }
}
