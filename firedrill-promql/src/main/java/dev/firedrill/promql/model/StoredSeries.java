package dev.firedrill.promql.model;

import java.util.Objects;

/**
 * One series' samples in time order: {@code timestamps[i]} (ms) carries {@code values[i]} for i
 * below {@code count}. The arrays belong to the reader once returned; a store hands out copies.
 */
public record StoredSeries(LabelSet labels, long[] timestamps, double[] values, int count) {

  public StoredSeries {
    Objects.requireNonNull(labels, "labels");
    if (count > timestamps.length || count > values.length) {
      throw new IllegalArgumentException("count " + count + " exceeds the arrays");
    }
  }
}
