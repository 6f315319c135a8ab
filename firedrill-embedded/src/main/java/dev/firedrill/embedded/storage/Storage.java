package dev.firedrill.embedded.storage;

import dev.firedrill.promql.model.SeriesSource;

/** What the embedded Prometheus keeps: readable by the evaluator, writable by scrapes and rules. */
public interface Storage extends SeriesSource, Appender {

  /** Drops samples older than {@code minTimeMs} and series left without samples. */
  void truncateBefore(long minTimeMs);

  /** The number of series currently held. */
  int seriesCount();
}
