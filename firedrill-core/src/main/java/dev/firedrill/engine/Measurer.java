package dev.firedrill.engine;

import dev.firedrill.experiment.Targets;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import java.util.Optional;

/**
 * Reads every SLI and the burn-rate guard once. Failures become error readings, never exceptions.
 */
public interface Measurer {

  /**
   * Reads every SLI once, with {@code {{ targets }}} in its queries standing for {@code targets}.
   */
  Measurement measure(Targets targets) throws InterruptedException;

  /**
   * The share of the error budget that is left (0..1), when the experiment gives a query for it.
   */
  default Optional<Reading> remainingBudget() {
    return Optional.empty();
  }
}
