package dev.firedrill.lab.load;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A log-linear histogram of durations in microseconds (within 1.6% above 128 µs, exact below),
 * thread-safe and of fixed size whatever the count, for the summary's quantiles.
 */
final class LatencyRecorder {

  private static final int SUB = 64;
  private static final int SIZE = 2 * SUB + 40 * SUB;
  private final AtomicLongArray counts = new AtomicLongArray(SIZE);

  void record(long nanos) {
    counts.incrementAndGet(index(Math.max(0, nanos / 1_000)));
  }

  long count() {
    long total = 0;
    for (int i = 0; i < SIZE; i++) {
      total += counts.get(i);
    }
    return total;
  }

  /** The value at quantile {@code q} (0 to 1), or zero with no data: the middle of its bucket. */
  Duration quantile(double q) {
    long[] snapshot = new long[SIZE];
    long total = 0;
    for (int i = 0; i < SIZE; i++) {
      snapshot[i] = counts.get(i);
      total += snapshot[i];
    }
    if (total == 0) {
      return Duration.ZERO;
    }
    long rank = Math.max(1, (long) Math.ceil(q * total));
    long seen = 0;
    for (int i = 0; i < SIZE; i++) {
      seen += snapshot[i];
      if (seen >= rank) {
        return Duration.ofNanos((lower(i) + upper(i)) * 500);
      }
    }
    return Duration.ofNanos((lower(SIZE - 1) + upper(SIZE - 1)) * 500);
  }

  static int index(long micros) {
    if (micros < 2 * SUB) {
      return (int) micros;
    }
    int shift = 63 - Long.numberOfLeadingZeros(micros) - 6; // micros >> shift is in [64, 128)
    int index = 2 * SUB + (shift - 1) * SUB + (int) ((micros >> shift) - SUB);
    return Math.min(index, SIZE - 1);
  }

  static long lower(int index) {
    if (index < 2 * SUB) {
      return index;
    }
    int shift = (index - 2 * SUB) / SUB + 1;
    return (SUB + (long) ((index - 2 * SUB) % SUB)) << shift;
  }

  static long upper(int index) {
    if (index < 2 * SUB) {
      return index + 1L;
    }
    int shift = (index - 2 * SUB) / SUB + 1;
    return (SUB + (long) ((index - 2 * SUB) % SUB) + 1) << shift;
  }
}
