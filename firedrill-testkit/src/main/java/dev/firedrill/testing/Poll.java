package dev.firedrill.testing;

import dev.firedrill.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Assertions;

/** Waiting in tests for what a real server does in its own time. */
public final class Poll {

  private static final Duration EVERY = Duration.ofMillis(200);

  private Poll() {}

  /**
   * Polls every 200 ms until {@code probe} gives a value and returns it; an exception counts as
   * "not yet". Fails naming {@code what} and the last error when {@code timeout} passes.
   */
  public static <T> T until(String what, Duration timeout, Callable<Optional<T>> probe)
      throws InterruptedException {
    Clock clock = Clock.system();
    long deadline = clock.nanoTime() + timeout.toNanos();
    Object last = "nothing yet";
    while (clock.nanoTime() - deadline < 0) {
      try {
        Optional<T> value = probe.call();
        if (value.isPresent()) {
          return value.get();
        }
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        last = e.getMessage();
      }
      clock.sleep(EVERY);
    }
    return Assertions.fail(
        "waited " + timeout.toSeconds() + "s for " + what + "; last error: " + last);
  }
}
