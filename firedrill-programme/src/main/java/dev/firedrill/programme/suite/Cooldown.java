package dev.firedrill.programme.suite;

import dev.firedrill.engine.DrillResult;
import java.time.Duration;
import java.util.List;

/**
 * The wait between two drills: until the system is back in steady state and every alert the
 * previous drill fired has resolved, for at most {@code limit}, so one drill's page never counts
 * for the next.
 */
@FunctionalInterface
public interface Cooldown {

  Waited await(Suite.Entry previous, DrillResult result, Duration limit)
      throws InterruptedException;

  /**
   * {@code quiet}: both held before the limit; {@code waited}: how long it took; {@code still}:
   * what had not settled when the limit ran out (alerts by name, or the steady state).
   */
  record Waited(boolean quiet, Duration waited, List<String> still) {
    public Waited {
      still = List.copyOf(still);
    }
  }
}
