package dev.firedrill.embedded.drive;

import dev.firedrill.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs scheduled work as time passes. Each piece of work is scheduled again only after it ends, for
 * its next slot still ahead, so a slow scrape skips slots (as Prometheus's ticker does) rather than
 * running twice at once or catching up in a burst.
 */
public final class RealTimeDriver implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(RealTimeDriver.class.getName());
  private static final int MAX_THREADS = 8;
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

  private final Clock clock;
  private final ScheduledThreadPoolExecutor pool;

  private RealTimeDriver(Clock clock, int threads) {
    this.clock = clock;
    AtomicInteger count = new AtomicInteger();
    this.pool =
        new ScheduledThreadPoolExecutor(
            threads,
            runnable -> {
              Thread thread =
                  new Thread(runnable, "firedrill-prometheus-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Schedules each piece of work for its first slot at or after the clock's now. */
  public static RealTimeDriver start(Clock clock, List<? extends Recurring> work) {
    RealTimeDriver driver =
        new RealTimeDriver(clock, Math.max(1, Math.min(MAX_THREADS, work.size())));
    work.forEach(w -> driver.schedule(w, w.nextAtOrAfter(clock.now())));
    return driver;
  }

  private void schedule(Recurring work, Instant slot) {
    long delay;
    try {
      delay = Math.max(0, Duration.between(clock.now(), slot).toNanos());
    } catch (ArithmeticException e) {
      delay = Long.MAX_VALUE; // work with nothing left to do names a time past any wait
    }
    try {
      pool.schedule(() -> run(work, slot), delay, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      // closed meanwhile: the work ends with the driver
    }
  }

  private void run(Recurring work, Instant slot) {
    try {
      work.run(slot);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, work.name() + " failed at " + slot, e);
    }
    Instant now = clock.now();
    Instant after = slot.plusMillis(1);
    schedule(work, work.nextAtOrAfter(now.isAfter(after) ? now : after));
  }

  /** Interrupts running work and waits for it at most five seconds. */
  @Override
  public void close() {
    pool.shutdownNow();
    try {
      if (!pool.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warning(
            "scheduled work still running "
                + CLOSE_WAIT.toSeconds()
                + " s after close was abandoned");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
