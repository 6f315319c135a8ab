package dev.firedrill.embedded.scrape;

import java.util.Objects;

/**
 * What one scrape did, as Prometheus reports it in {@code up} and {@code scrape_*}.
 *
 * @param error why the scrape failed (up is 0), null when it succeeded
 */
public record ScrapeReport(
    ScrapeTarget target,
    long timestampMs,
    double durationSeconds,
    int samplesScraped,
    int seriesAdded,
    String error) {

  public ScrapeReport {
    Objects.requireNonNull(target, "target");
  }

  public boolean up() {
    return error == null;
  }
}
