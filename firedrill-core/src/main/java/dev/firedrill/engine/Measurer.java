package dev.firedrill.engine;

import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import java.util.Optional;

/**
 * Reads every SLI and the burn-rate guard once. Failures become error readings, never exceptions.
 */
public interface Measurer {

  Measurement measure() throws InterruptedException;

  /**
   * The share of the error budget that is left (0..1), when the experiment gives a query for it.
   */
  default Optional<Reading> remainingBudget() {
    return Optional.empty();
  }
}
