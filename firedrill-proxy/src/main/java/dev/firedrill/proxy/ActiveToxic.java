package dev.firedrill.proxy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/** A toxic in force: when it expires, and a latch that opens when it is removed. */
public final class ActiveToxic {

  private final Toxic toxic;
  private final long expiresAtNanos;
  private final LongSupplier nanoTime;
  private final CountDownLatch removed = new CountDownLatch(1);

  ActiveToxic(Toxic toxic, long expiresAtNanos, LongSupplier nanoTime) {
    this.toxic = toxic;
    this.expiresAtNanos = expiresAtNanos;
    this.nanoTime = nanoTime;
  }

  public Toxic toxic() {
    return toxic;
  }

  /** Time left before the proxy removes it by itself; zero once due. */
  public Duration remaining() {
    long left = expiresAtNanos - nanoTime.getAsLong();
    return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
  }

  boolean isRemoved() {
    return removed.getCount() == 0;
  }

  void markRemoved() {
    removed.countDown();
  }

  /** Waits up to {@code limit} for the removal; returns whether it happened. */
  boolean awaitRemoval(Duration limit) throws InterruptedException {
    return removed.await(limit.toNanos(), TimeUnit.NANOSECONDS);
  }
}
