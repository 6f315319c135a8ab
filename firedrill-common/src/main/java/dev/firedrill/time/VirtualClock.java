package dev.firedrill.time;

import java.time.Duration;
import java.time.Instant;

/**
 * Time that moves only when its owner moves it, for running minutes of scrapes and evaluations in
 * milliseconds. Nothing may wait on it: {@link #sleep} refuses, since no other thread would ever
 * move the time it waits for.
 */
public final class VirtualClock implements Clock {

  private final Instant origin;
  private volatile Instant now;

  public VirtualClock(Instant start) {
    this.origin = start;
    this.now = start;
  }

  @Override
  public Instant now() {
    return now;
  }

  /** Nanoseconds since the clock's start. */
  @Override
  public long nanoTime() {
    return Duration.between(origin, now).toNanos();
  }

  @Override
  public void sleep(Duration duration) {
    throw new IllegalStateException("cannot sleep " + duration + " on a virtual clock (expected its owner to move it)");
  }

  /** Moves time to {@code to}; refuses to go back, as no clock may. */
  public void set(Instant to) {
    if (to.isBefore(now)) {
      throw new IllegalArgumentException("virtual time " + to + " is before " + now + " (expected no earlier than now)");
    }
    now = to;
  }
}
