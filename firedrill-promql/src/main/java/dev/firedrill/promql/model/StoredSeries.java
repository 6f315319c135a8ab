package dev.firedrill.promql.model;

import java.util.Objects;

/**
 * One series' samples in time order: {@code timestamps[i]} (ms) carries {@code values[i]} for i
 * below {@code count}. The arrays belong to the reader once returned; a store hands out copies.
 * {@code startTimestamps[i]}, when the store keeps them (null when it does not), is sample i's
 * start timestamp in ms (a counter's created time), 0 where unknown, as Prometheus stores them.
 */
public record StoredSeries(
    LabelSet labels, long[] timestamps, double[] values, int count, long[] startTimestamps) {

  public StoredSeries {
    Objects.requireNonNull(labels, "labels");
    if (count > timestamps.length
        || count > values.length
        || (startTimestamps != null && count > startTimestamps.length)) {
      throw new IllegalArgumentException("count " + count + " exceeds the arrays");
    }
  }

  /** A series without start timestamps. */
  public StoredSeries(LabelSet labels, long[] timestamps, double[] values, int count) {
    this(labels, timestamps, values, count, null);
  }
}
