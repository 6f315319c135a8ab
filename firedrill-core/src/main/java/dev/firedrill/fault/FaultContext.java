package dev.firedrill.fault;

import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.Hypothesis;
import dev.firedrill.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What a fault needs from the drill around it. {@code environment} is where tokens named by the
 * experiment (such as {@code admin_token_env}) are read; {@code kubernetesContext} is the
 * experiment's {@code kubernetes.context} (none: the kubeconfig's current context); {@code
 * recovery} is the hypothesis's recovery time, which a fault whose revert is a controller's work
 * (pod-delete) waits for; {@code resolve} says whether {@link Fault#plan()} may read a remote
 * system (a cluster's pods) to choose its targets: a drill always does, {@code plan} only with
 * {@code --resolve}; {@code runId} (see {@link RunIds}) goes into the name or a label of everything
 * a fault creates, so its rollback removes only its own run's (empty: none, as in tests that name
 * what they expect).
 */
public record FaultContext(
    String experimentId,
    BlastRadius blastRadius,
    Duration methodDuration,
    ProcessTable processes,
    WorkerLauncher launcher,
    Clock clock,
    Map<String, String> environment,
    Optional<String> kubernetesContext,
    Duration recovery,
    boolean resolve,
    String runId) {

  public FaultContext {
    Objects.requireNonNull(experimentId, "experimentId");
    Objects.requireNonNull(blastRadius, "blastRadius");
    Objects.requireNonNull(methodDuration, "methodDuration");
    Objects.requireNonNull(processes, "processes");
    Objects.requireNonNull(launcher, "launcher");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(environment, "environment");
    Objects.requireNonNull(kubernetesContext, "kubernetesContext");
    Objects.requireNonNull(recovery, "recovery");
    Objects.requireNonNull(runId, "runId");
    if (!runId.isEmpty() && !RunIds.valid(runId)) {
      throw new IllegalArgumentException("run id " + runId + ": expected " + RunIds.SHAPE);
    }
  }

  /** With no run id: what this context names is named by the experiment and the index alone. */
  public FaultContext(
      String experimentId,
      BlastRadius blastRadius,
      Duration methodDuration,
      ProcessTable processes,
      WorkerLauncher launcher,
      Clock clock,
      Map<String, String> environment,
      Optional<String> kubernetesContext,
      Duration recovery,
      boolean resolve) {
    this(
        experimentId,
        blastRadius,
        methodDuration,
        processes,
        launcher,
        clock,
        environment,
        kubernetesContext,
        recovery,
        resolve,
        "");
  }

  /** With the default recovery time, resolving remote targets. */
  public FaultContext(
      String experimentId,
      BlastRadius blastRadius,
      Duration methodDuration,
      ProcessTable processes,
      WorkerLauncher launcher,
      Clock clock,
      Map<String, String> environment,
      Optional<String> kubernetesContext) {
    this(
        experimentId,
        blastRadius,
        methodDuration,
        processes,
        launcher,
        clock,
        environment,
        kubernetesContext,
        Hypothesis.DEFAULT_RECOVERY,
        true);
  }

  /** With this process's environment. */
  public FaultContext(
      String experimentId,
      BlastRadius blastRadius,
      Duration methodDuration,
      ProcessTable processes,
      WorkerLauncher launcher,
      Clock clock) {
    this(
        experimentId,
        blastRadius,
        methodDuration,
        processes,
        launcher,
        clock,
        System.getenv(),
        Optional.empty());
  }

  /** The same context reading tokens from {@code environment}. */
  public FaultContext withEnvironment(Map<String, String> environment) {
    return copy(c -> c.environment = environment);
  }

  /** The same context with the hypothesis's recovery time. */
  public FaultContext withRecovery(Duration recovery) {
    return copy(c -> c.recovery = recovery);
  }

  /** The same context, reading remote targets in {@code plan} or not. */
  public FaultContext withResolve(boolean resolve) {
    return copy(c -> c.resolve = resolve);
  }

  /** The same context with the experiment's {@code kubernetes.context}. */
  public FaultContext withKubernetesContext(Optional<String> context) {
    return copy(c -> c.kubernetesContext = context);
  }

  /**
   * The same context naming what it creates with {@code runId} (see {@link RunIds}), so a rollback
   * or a cleanup touches only what this run created; empty for none.
   */
  public FaultContext withRunId(String runId) {
    return copy(c -> c.runId = runId);
  }

  private FaultContext copy(Consumer<Copy> change) {
    Copy copy = new Copy(this);
    change.accept(copy);
    return copy.build();
  }

  /** Every component once, for the {@code with} methods: each changes one and keeps the rest. */
  private static final class Copy {
    private final String experimentId;
    private final BlastRadius blastRadius;
    private final Duration methodDuration;
    private final ProcessTable processes;
    private final WorkerLauncher launcher;
    private final Clock clock;
    private Map<String, String> environment;
    private Optional<String> kubernetesContext;
    private Duration recovery;
    private boolean resolve;
    private String runId;

    private Copy(FaultContext from) {
      experimentId = from.experimentId;
      blastRadius = from.blastRadius;
      methodDuration = from.methodDuration;
      processes = from.processes;
      launcher = from.launcher;
      clock = from.clock;
      environment = from.environment;
      kubernetesContext = from.kubernetesContext;
      recovery = from.recovery;
      resolve = from.resolve;
      runId = from.runId;
    }

    private FaultContext build() {
      return new FaultContext(
          experimentId,
          blastRadius,
          methodDuration,
          processes,
          launcher,
          clock,
          environment,
          kubernetesContext,
          recovery,
          resolve,
          runId);
    }
  }

  /** Never the environment's values: they may hold tokens. */
  @Override
  public String toString() {
    return "FaultContext[experimentId="
        + experimentId
        + ", blastRadius="
        + blastRadius
        + ", methodDuration="
        + methodDuration
        + ", runId="
        + runId
        + "]";
  }

  /**
   * The host's real processes, this JVM's own java and classes, the system clock, and a fresh run
   * id.
   */
  public static FaultContext onThisHost(
      String experimentId, BlastRadius blastRadius, Duration methodDuration) {
    return new FaultContext(
            experimentId,
            blastRadius,
            methodDuration,
            ProcessTable.system(),
            WorkerLauncher.current(),
            Clock.system())
        .withRunId(RunIds.fresh());
  }
}
