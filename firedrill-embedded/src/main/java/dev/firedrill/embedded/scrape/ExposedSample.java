package dev.firedrill.embedded.scrape;

import dev.firedrill.promql.model.LabelSet;
import java.util.Objects;

/**
 * One sample line of an exposition: its labels with {@code __name__}, its value, and the timestamp
 * it was written with ({@link #NO_TIMESTAMP} when none, the common case, and the scrape's time is
 * used).
 */
public record ExposedSample(LabelSet labels, double value, long timestampMs) {

  public static final long NO_TIMESTAMP = Long.MIN_VALUE;

  public ExposedSample {
    Objects.requireNonNull(labels, "labels");
  }

  public boolean hasTimestamp() {
    return timestampMs != NO_TIMESTAMP;
  }
}
