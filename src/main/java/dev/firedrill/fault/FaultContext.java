package dev.firedrill.fault;

import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.time.Clock;
import java.time.Duration;
import java.util.Objects;

/** What a fault needs from the drill around it. */
public record FaultContext(
    String experimentId,
    BlastRadius blastRadius,
    Duration methodDuration,
    ProcessTable processes,
    WorkerLauncher launcher,
    Clock clock) {

  public FaultContext {
    Objects.requireNonNull(experimentId, "experimentId");
    Objects.requireNonNull(blastRadius, "blastRadius");
    Objects.requireNonNull(methodDuration, "methodDuration");
    Objects.requireNonNull(processes, "processes");
    Objects.requireNonNull(launcher, "launcher");
    Objects.requireNonNull(clock, "clock");
  }

  /** The host's real processes, this JVM's own java and classes, the system clock. */
  public static FaultContext onThisHost(String experimentId, BlastRadius blastRadius, Duration methodDuration) {
    return new FaultContext(experimentId, blastRadius, methodDuration, ProcessTable.system(),
        WorkerLauncher.current(), Clock.system());
  }
}
