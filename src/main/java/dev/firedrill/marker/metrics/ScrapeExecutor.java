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

  /** Per request thread: the token of the running request, and whether it read the active gauge. */
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
    if (current != null) {
      current[1] = 1;
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
    if (current != null && current[1] == 1 && failure == null) {
      watch.completed(current[0]);
    }
  }
}
