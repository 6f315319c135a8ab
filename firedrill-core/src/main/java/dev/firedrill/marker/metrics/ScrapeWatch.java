package dev.firedrill.marker.metrics;

import dev.firedrill.time.Clock;
import java.time.Duration;

/**
 * Knows when a scrape has read the 0: every change of {@code chaos_experiment_active} starts a new
 * generation; a scrape request that started in a generation where every fault was already 0, and
 * that completed, read it.
 */
final class ScrapeWatch {

  static final Duration POLL = Duration.ofMillis(50);

  private final Clock clock;
  private long generation;

  /** The generation in which every fault became 0, or -1 while one is on. */
  private long zeroSince = -1;

  private long scrapesOfZero;

  ScrapeWatch(Clock clock) {
    this.clock = clock;
  }

  /** The active gauge changed; {@code allOff} when no fault is on any more. */
  synchronized void activeChanged(boolean allOff) {
    generation++;
    zeroSince = allOff ? generation : -1;
  }

  /** A scrape request starts: the token to hand to {@link #completed}. */
  synchronized long started() {
    return generation;
  }

  /**
   * The scrape request that started with {@code token} read the active gauge and sent its answer.
   */
  synchronized void completed(long token) {
    if (zeroSince >= 0 && token >= zeroSince) {
      scrapesOfZero++;
    }
  }

  synchronized long scrapesOfZero() {
    return scrapesOfZero;
  }

  /**
   * Waits up to {@code limit} until a scrape has read the 0; true when one has. An interrupt ends
   * the wait (false) with the flag restored.
   */
  boolean awaitZeroScraped(Duration limit) {
    long deadline = clock.nanoTime() + limit.toNanos();
    while (true) {
      if (scrapesOfZero() > 0) {
        return true;
      }
      long left = deadline - clock.nanoTime();
      if (left <= 0) {
        return false;
      }
      try {
        clock.sleep(Duration.ofNanos(Math.min(POLL.toNanos(), left)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }
}
