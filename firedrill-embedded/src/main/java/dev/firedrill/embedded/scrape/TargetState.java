package dev.firedrill.embedded.scrape;

import dev.firedrill.promql.model.LabelSet;
import java.util.HashMap;
import java.util.Map;

/**
 * What the scraper remembers of one target between scrapes; guarded by its own monitor. The cache
 * maps each exposed label set to its stored one, so a steady target's labels are joined once, and
 * its keys are exactly the series of the last successful scrape: those that vanish get staleness
 * markers.
 */
final class TargetState {

  /**
   * Exposed labels to stored labels, for the series of the last scrape written without a timestamp.
   */
  Map<LabelSet, Cached> series = new HashMap<>();

  /**
   * Exposed labels to stored labels, for the series written with their own timestamp (never marked
   * stale).
   */
  Map<LabelSet, Cached> timestamped = new HashMap<>();

  /**
   * When the last scrape was stamped; Long.MIN_VALUE before the first (then there are no report
   * series).
   */
  long lastScrapeMs = Long.MIN_VALUE;

  boolean removed;

  /** A series as first exposed (the key the cache keeps) and as stored. */
  record Cached(LabelSet exposed, LabelSet stored) {}
}
