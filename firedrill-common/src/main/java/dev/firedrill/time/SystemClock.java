package dev.firedrill.time;

import java.time.Duration;
import java.time.Instant;

/** The real clock. */
enum SystemClock implements Clock {
  INSTANCE;

  @Override
  public Instant now() {
    return Instant.now();
  }

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public void sleep(Duration duration) throws InterruptedException {
    if (!duration.isNegative() && !duration.isZero()) {
      Thread.sleep(duration.toMillis(), (int) (duration.toNanos() % 1_000_000));
    }
  }
}
