package dev.firedrill.fault;

import dev.firedrill.time.Clock;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Bounded polling through the injected clock. */
final class Waits {

  static final Duration POLL = Duration.ofMillis(50);

  private Waits() {}

  /** Polls until {@code done} holds or {@code limit} passes; returns whether it held. */
  static boolean until(Clock clock, Duration limit, BooleanSupplier done)
      throws InterruptedException {
    long deadline = clock.nanoTime() + limit.toNanos();
    while (!done.getAsBoolean()) {
      if (clock.nanoTime() - deadline >= 0) {
        return false;
      }
      clock.sleep(POLL);
    }
    return true;
  }
}
