package dev.firedrill.embedded.storage;

import java.util.Arrays;

/**
 * Up to {@link #MAX_SAMPLES} consecutive samples of one series. Timestamps are int offsets from the
 * chunk's base, so a sample costs 12 bytes instead of 16; a chunk is cut when it is full or when an
 * offset would not fit in an int (about 24.8 days after the base).
 */
final class Chunk {

  static final int MAX_SAMPLES = 128;

  /**
   * Most series are short-lived or sparse at first; doubling from here keeps their head chunk
   * small.
   */
  private static final int FIRST_CAPACITY = 8;

  private final long baseMs;
  private int[] offsets = new int[FIRST_CAPACITY];
  private double[] values = new double[FIRST_CAPACITY];
  private int count;

  Chunk(long baseMs) {
    this.baseMs = baseMs;
  }

  /** Whether a sample at {@code timestampMs} (not before the last one) fits in this chunk. */
  boolean accepts(long timestampMs) {
    return count < MAX_SAMPLES && timestampMs - baseMs <= Integer.MAX_VALUE;
  }

  void add(long timestampMs, double value) {
    if (count == offsets.length) {
      int capacity = Math.min(MAX_SAMPLES, count * 2);
      offsets = Arrays.copyOf(offsets, capacity);
      values = Arrays.copyOf(values, capacity);
    }
    offsets[count] = (int) (timestampMs - baseMs);
    values[count] = value;
    count++;
  }

  int count() {
    return count;
  }

  long timestamp(int i) {
    return baseMs + offsets[i];
  }

  double value(int i) {
    return values[i];
  }

  long lastTimestamp() {
    return baseMs + offsets[count - 1];
  }

  double lastValue() {
    return values[count - 1];
  }

  /**
   * The first index whose timestamp is at or after {@code timestampMs} ({@link #count()} if none).
   */
  int firstAtOrAfter(long timestampMs) {
    if (timestampMs <= baseMs) {
      return 0;
    }
    if (timestampMs - baseMs > Integer.MAX_VALUE) {
      return count;
    }
    int target = (int) (timestampMs - baseMs);
    int lo = 0;
    int hi = count;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (offsets[mid] < target) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Copies samples {@code [from, to)} into the arrays at {@code at}. */
  void copy(int from, int to, long[] timestamps, double[] into, int at) {
    for (int i = from; i < to; i++) {
      timestamps[at + i - from] = baseMs + offsets[i];
    }
    System.arraycopy(values, from, into, at, to - from);
  }
}
