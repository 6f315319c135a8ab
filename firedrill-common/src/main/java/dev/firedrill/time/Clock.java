package dev.firedrill.time;

import java.time.Duration;
import java.time.Instant;

/**
 * Time as the drill sees it. Engine and fault code read time and wait only through this port, so
 * tests can run a ten-minute drill on a virtual clock in milliseconds.
 */
public interface Clock {

  /** Wall-clock time, for journals and for comparing with Prometheus's timestamps. */
  Instant now();

  /** A monotonic reading in nanoseconds, for measuring elapsed time. */
  long nanoTime();

  /** Waits for {@code duration}. Restores nothing: the caller handles the interrupt. */
  void sleep(Duration duration) throws InterruptedException;

  static Clock system() {
    return SystemClock.INSTANCE;
  }
}
