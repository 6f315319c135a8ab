package dev.firedrill.marker.metrics;

import com.sun.net.httpserver.HttpHandler;

/**
 * Tells which requests to the metrics endpoint were scrapes that delivered the active gauge. A
 * request runs on one thread from its handler's start to its answer sent, so one that read the
 * gauge and then returned delivered it; it is counted against the generation it started in.
 */
final class ScrapeRequests {

  private static final long READ = 1;
  private static final long FAILED = 2;

  /**
   * Per request thread: the token of the running request, and whether it read the active gauge (or
   * failed).
   */
  private final ThreadLocal<long[]> request = new ThreadLocal<>();

  private final ScrapeWatch watch;

  ScrapeRequests(ScrapeWatch watch) {
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
   * Called by the metrics handler when sending the answer failed (a scraper that hung up): that
   * request delivered nothing, whatever it read. Instead of the client library's SEVERE log with a
   * stack trace on the console.
   */
  void markFailed(Exception failure) {
    long[] current = request.get();
    if (current != null) {
      current[1] = FAILED;
    }
  }

  /**
   * {@code scrape}, watched: a request that read the gauge and answered counts for {@link
   * ScrapeWatch}.
   */
  HttpHandler watching(HttpHandler scrape) {
    return exchange -> {
      request.set(new long[] {watch.started(), 0});
      boolean answered = false;
      try {
        scrape.handle(exchange);
        answered = true;
      } finally {
        long[] current = request.get();
        request.remove();
        if (answered && current[1] == READ) {
          watch.completed(current[0]);
        }
      }
    };
  }
}
