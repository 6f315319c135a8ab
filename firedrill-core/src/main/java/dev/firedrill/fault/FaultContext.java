package dev.firedrill.fault;

import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * What a fault needs from the drill around it. {@code environment} is where tokens named by the
 * experiment (such as {@code admin_token_env}) are read.
 */
public record FaultContext(
    String experimentId,
    BlastRadius blastRadius,
    Duration methodDuration,
    ProcessTable processes,
    WorkerLauncher launcher,
    Clock clock,
    Map<String, String> environment) {

  public FaultContext {
    Objects.requireNonNull(experimentId, "experimentId");
    Objects.requireNonNull(blastRadius, "blastRadius");
    Objects.requireNonNull(methodDuration, "methodDuration");
    Objects.requireNonNull(processes, "processes");
    Objects.requireNonNull(launcher, "launcher");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(environment, "environment");
  }

  /** With this process's environment. */
  public FaultContext(
      String experimentId,
      BlastRadius blastRadius,
      Duration methodDuration,
      ProcessTable processes,
      WorkerLauncher launcher,
      Clock clock) {
    this(experimentId, blastRadius, methodDuration, processes, launcher, clock, System.getenv());
  }

  /** The same context reading tokens from {@code environment}. */
  public FaultContext withEnvironment(Map<String, String> environment) {
    return new FaultContext(
        experimentId, blastRadius, methodDuration, processes, launcher, clock, environment);
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
        + "]";
  }

  /** The host's real processes, this JVM's own java and classes, the system clock. */
  public static FaultContext onThisHost(
      String experimentId, BlastRadius blastRadius, Duration methodDuration) {
    return new FaultContext(
        experimentId,
        blastRadius,
        methodDuration,
        ProcessTable.system(),
        WorkerLauncher.current(),
        Clock.system());
  }
}
