package dev.firedrill.engine;

import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.guard.Measurement;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What a drill did, as data, for the sinks that mark the experiment in other signals (annotations,
 * gauges, spans, logs). Each carries the instant it happened on the drill's clock.
 */
public sealed interface Milestone {

  Instant at();

  /** The drill began; nothing is injected yet. */
  record DrillStarted(Experiment experiment, Instant at) implements Milestone {
    public DrillStarted {
      Objects.requireNonNull(experiment, "experiment");
    }
  }

  /** The drill entered a phase; the previous phase ends here. */
  record PhaseStarted(Phase phase, Instant at) implements Milestone {}

  /** Fault {@code index} (in the experiment's order) is about to be injected. */
  record FaultInjecting(int index, FaultSpec spec, Instant at) implements Milestone {}

  /** Fault {@code index} is on, or its injection failed with {@code failure}. */
  record FaultInjected(int index, FaultSpec spec, Instant at, Optional<String> failure) implements Milestone {
    public FaultInjected {
      failure = failure == null ? Optional.empty() : failure;
    }

    public boolean applied() {
      return failure.isEmpty();
    }
  }

  /**
   * One measurement, taken between {@code startedAt} and {@code at}; its readings with status
   * breach are the guard breaches.
   */
  record Measured(Phase phase, Instant startedAt, Measurement measurement, Instant at) implements Milestone {}

  /** The drill stops early; the rollback follows at once. */
  record Aborted(String reason, Instant at) implements Milestone {}

  /** Fault {@code index} is about to be reverted. */
  record FaultReverting(int index, FaultSpec spec, Instant at) implements Milestone {}

  /** Fault {@code index} was reverted and verified gone ({@code reverted}), or still needs a human. */
  record FaultReverted(int index, FaultSpec spec, Instant at, boolean reverted) implements Milestone {}

  /** The drill ended with its system verdict; {@code abortReason} is set when it was aborted. */
  record DrillFinished(Verdict verdict, String reason, Optional<String> abortReason, Instant at)
      implements Milestone {
    public DrillFinished {
      abortReason = abortReason == null ? Optional.empty() : abortReason;
    }
  }
}
