package dev.firedrill.embedded.scrape;

import dev.firedrill.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Scrapes each target on its own thread at its scrape times, reading and waiting on the clock, so a
 * clock that advances on sleep runs the same loop in virtual time. A scrape is stamped with its
 * scheduled time.
 */
public final class ScrapeScheduler implements AutoCloseable {

  /**
   * How long stopping waits for one loop: a scrape in flight ends within its timeout once
   * interrupted.
   */
  private static final Duration STOP_WAIT = Duration.ofSeconds(5);

  private final Scraper scraper;
  private final Clock clock;
  private final Map<ScrapeTarget, Thread> loops = new LinkedHashMap<>();

  public ScrapeScheduler(Scraper scraper, Clock clock) {
    this.scraper = scraper;
    this.clock = clock;
  }

  /** Scrapes exactly {@code targets} from now on; removed ones are stopped, then marked stale. */
  public synchronized void apply(Collection<ScrapeTarget> targets) {
    Set<ScrapeTarget> wanted = new HashSet<>(targets);
    List<Thread> stopping =
        loops.entrySet().stream()
            .filter(e -> !wanted.contains(e.getKey()))
            .map(Map.Entry::getValue)
            .toList();
    loops.keySet().retainAll(wanted);
    stop(stopping);
    scraper.sync(targets, clock.now().toEpochMilli());
    for (ScrapeTarget target : targets) {
      loops.computeIfAbsent(target, this::start);
    }
  }

  /**
   * Stops every loop, waiting a bounded time; writes no staleness markers (Prometheus does not on
   * shutdown).
   */
  @Override
  public synchronized void close() {
    List<Thread> all = List.copyOf(loops.values());
    loops.clear();
    stop(all);
  }

  private Thread start(ScrapeTarget target) {
    Thread thread = new Thread(() -> loop(target), "scrape " + target);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  private void loop(ScrapeTarget target) {
    long last = Long.MIN_VALUE;
    try {
      while (!Thread.currentThread().isInterrupted()) {
        long now = clock.now().toEpochMilli();
        long next =
            target.nextScrapeAtOrAfter(last == Long.MIN_VALUE ? now : Math.max(now, last + 1));
        clock.sleep(Duration.ofMillis(next - now));
        scraper.scrapeOnce(target, next);
        last = next;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void stop(List<Thread> threads) {
    threads.forEach(Thread::interrupt);
    long deadline = System.nanoTime() + STOP_WAIT.toNanos();
    for (Thread thread : threads) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return;
      }
      try {
        thread.join(Math.max(1, left / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
