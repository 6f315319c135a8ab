package dev.firedrill.embedded.storage;

import dev.firedrill.promql.model.LabelSet;

/** Writes samples; a sample older than its series' newest is refused, as Prometheus refuses it. */
public interface Appender {

  /**
   * @return false when the sample is out of order or a duplicate timestamp with another value
   */
  boolean append(LabelSet labels, long timestampMs, double value);
}
