package dev.firedrill.marker.metrics;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The metrics endpoint's request threads. Each HTTP exchange runs as one task from reading the
 * request to sending the answer, so a task that read the active gauge and then finished is a
 * scrape that delivered it; it is counted against the generation its task started in.
 */
final class ScrapeExecutor extends ThreadPoolExecutor {

  private static final AtomicInteger THREADS = new AtomicInteger();

  private static final long READ = 1;
  private static final long FAILED = 2;

  /** Per request thread: the token of the running request, and whether it read the active gauge (or failed). */
  private final ThreadLocal<long[]> request = new ThreadLocal<>();
  private final ScrapeWatch watch;

  ScrapeExecutor(ScrapeWatch watch) {
    super(2, 2, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), runnable -> {
      Thread thread = new Thread(runnable, "firedrill-metrics-http-" + THREADS.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    this.watch = watch;
  }

  /** Called by the active gauge's collector: the current request (if any) read it. */
  void markRead() {
    long[] current = request.get();
    if (current != null && current[1] != FAILED) {
      current[1] = READ;
    }
  }

  /**
   * Called by the server when sending the answer failed (a scraper that hung up): that request
   * delivered nothing, whatever it read. Instead of the client library's SEVERE log with a stack
   * trace on the console.
   */
  void markFailed(Exception failure) {
    long[] current = request.get();
    if (current != null) {
      current[1] = FAILED;
    }
  }

  @Override
  protected void beforeExecute(Thread thread, Runnable task) {
    request.set(new long[] {watch.started(), 0});
  }

  @Override
  protected void afterExecute(Runnable task, Throwable failure) {
    long[] current = request.get();
    request.remove();
    if (current != null && current[1] == READ && failure == null) {
      watch.completed(current[0]);
    }
  }
}
