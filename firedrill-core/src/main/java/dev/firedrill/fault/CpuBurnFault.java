package dev.firedrill.fault;

import static dev.firedrill.time.Durations.format;

import dev.firedrill.experiment.FaultSpec;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Starts busy JVMs that each exit by themselves after the TTL; revert ends them early. With a run
 * id, each worker's command line carries {@code --tag <run id>.<index>}, recorded in the journal
 * before the first worker starts: a firedrill killed between a worker's start and the journal's
 * next write leaves a worker cleanup still finds, by its tag, and only this run's.
 */
public final class CpuBurnFault implements Fault {

  static final List<String> JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-Xmx32m");

  private final FaultSpec.CpuBurn spec;
  private final FaultContext context;
  private final List<ProcessId> workers = new ArrayList<>();

  /** The workers' {@code --tag}; empty without a run id. */
  private final String tag;

  CpuBurnFault(FaultSpec.CpuBurn spec, FaultContext context) {
    this(spec, context, "");
  }

  CpuBurnFault(FaultSpec.CpuBurn spec, FaultContext context, String tag) {
    this.spec = spec;
    this.context = context;
    this.tag = tag;
  }

  /** {@code <run id>.<index>}, or empty when the context has no run id. */
  static String tag(FaultContext context, int index) {
    return context.runId().isEmpty() ? "" : context.runId() + "." + index;
  }

  static CpuBurnFault restore(
      FaultSpec.CpuBurn spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    Object tag = state.get("tag");
    if (tag != null && !(tag instanceof String text && text.matches("[0-9a-f]{8}\\.\\d+"))) {
      throw new FaultException(
          "cpu-burn: the journal's state has tag " + tag + "; expected <run id>.<index>");
    }
    CpuBurnFault fault = new CpuBurnFault(spec, context, tag == null ? "" : (String) tag);
    List<?> recorded = StateValues.list(state.get("workers"), "workers");
    for (int i = 0; i < recorded.size(); i++) {
      fault.workers.add(ProcessId.fromState(recorded.get(i), "workers[" + i + "]"));
    }
    return fault;
  }

  @Override
  public FaultSpec.CpuBurn spec() {
    return spec;
  }

  @Override
  public List<String> plan() throws FaultException {
    Duration ttl = check();
    String noun = spec.workers() == 1 ? "worker" : "workers";
    String exits = spec.workers() == 1 ? "which exits" : "each exits";
    return List.of(
        "start "
            + spec.workers()
            + " cpu-burn "
            + noun
            + " (java ... "
            + CpuBurnWorker.class.getSimpleName()
            + " "
            + String.join(" ", workerArgs(ttl))
            + "), "
            + exits
            + " by itself after "
            + format(ttl));
  }

  private Duration check() throws FaultException {
    return FaultChecks.check(spec, context.blastRadius(), context.methodDuration());
  }

  private List<String> workerArgs(Duration ttl) {
    String seconds = BigDecimal.valueOf(ttl.toMillis(), 3).stripTrailingZeros().toPlainString();
    List<String> args =
        new ArrayList<>(List.of("--seconds", seconds, "--experiment", context.experimentId()));
    if (!tag.isEmpty()) {
      args.addAll(List.of("--tag", tag));
    }
    return List.copyOf(args);
  }

  @Override
  public void inject() throws FaultException {
    Duration ttl = check();
    if (!workers().isEmpty()) {
      throw new FaultException(
          "cpu-burn: already injected (workers PIDs "
              + Terminator.pids(workers())
              + "); expected one inject per fault");
    }
    List<String> command =
        context.launcher().command(JVM_OPTIONS, CpuBurnWorker.class, workerArgs(ttl));
    for (int i = 0; i < spec.workers(); i++) {
      Process process;
      try {
        process = WorkerLauncher.detached(command).start();
      } catch (IOException e) {
        throw new FaultException(
            "cpu-burn: cannot start worker "
                + (i + 1)
                + " of "
                + spec.workers()
                + " with "
                + command.get(0)
                + ": "
                + e.getMessage(),
            e);
      }
      Optional<ProcessInfo> started =
          context.processes().find(process.pid()).filter(ProcessInfo::alive);
      if (started.isEmpty()) {
        throw new FaultException(
            "cpu-burn: worker PID "
                + process.pid()
                + " exited at once; expected it to run for "
                + format(ttl));
      }
      // Recorded before the next start, so a failure half-way still reverts what runs.
      synchronized (workers) {
        workers.add(started.get().id());
      }
    }
  }

  /** How many workers the last revert found running and ended. */
  private volatile int stopped;

  @Override
  public void revert() throws FaultException {
    List<ProcessId> ids = allWorkers();
    List<ProcessId> running = ids.stream().filter(context.processes()::alive).toList();
    List<ProcessId> left = new Terminator(context.processes(), context.clock()).terminate(ids);
    stopped = running.size();
    if (!left.isEmpty()) {
      throw new FaultException(
          "cpu-burn: workers still alive after SIGTERM and SIGKILL: PIDs " + Terminator.pids(left));
    }
  }

  @Override
  public Verification verify() {
    List<ProcessId> ids = allWorkers();
    List<ProcessId> alive = ids.stream().filter(context.processes()::alive).toList();
    if (alive.isEmpty() && stopped > 0) {
      return Verification.reverted(
          "stopped "
              + stopped
              + (stopped == 1 ? " cpu-burn worker" : " cpu-burn workers")
              + " (SIGTERM, then SIGKILL if needed); verified: none is running (PIDs "
              + Terminator.pids(ids)
              + ")");
    }
    if (alive.isEmpty()) {
      return Verification.reverted(
          ids.isEmpty()
              ? "no cpu-burn worker was started"
              : "no cpu-burn worker alive (PIDs " + Terminator.pids(ids) + ")");
    }
    return Verification.remaining("cpu-burn workers still alive: PIDs " + Terminator.pids(alive));
  }

  @Override
  public String manualRevertCommand() {
    List<ProcessId> ids = allWorkers();
    if (ids.isEmpty()) {
      return "# no cpu-burn worker was recorded; any that started exits by itself at its ttl";
    }
    return "kill -9 " + Terminator.pids(ids);
  }

  @Override
  public Map<String, Object> state() {
    Map<String, Object> state = new LinkedHashMap<>();
    state.put("workers", workers().stream().map(ProcessId::toState).toList());
    if (!tag.isEmpty()) {
      state.put("tag", tag);
    }
    return state;
  }

  /** The tag, before any worker starts: cleanup finds the workers by it (none without a run id). */
  @Override
  public Optional<Map<String, Object>> stateBeforeInjection() {
    return tag.isEmpty() ? Optional.empty() : Optional.of(state());
  }

  /**
   * The recorded workers and every live one whose command line carries this fault's tag: one
   * started just before firedrill was killed is in the process table but not in the journal.
   */
  private List<ProcessId> allWorkers() {
    List<ProcessId> ids = new ArrayList<>(workers());
    if (tag.isEmpty()) {
      return ids;
    }
    for (ProcessInfo process : context.processes().list()) {
      if (process.alive() && tagged(process.args()) && !ids.contains(process.id())) {
        ids.add(process.id());
      }
    }
    return List.copyOf(ids);
  }

  private boolean tagged(List<String> args) {
    int at = args.indexOf("--tag");
    return at >= 0
        && at + 1 < args.size()
        && args.get(at + 1).equals(tag)
        && args.contains(CpuBurnWorker.class.getName());
  }

  private List<ProcessId> workers() {
    synchronized (workers) {
      return List.copyOf(workers);
    }
  }
}
