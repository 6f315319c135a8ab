package dev.firedrill.embedded.storage;

import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.StoredSeries;
import java.util.ArrayList;
import java.util.Arrays;

/**
 * One series' samples. Its monitor guards them: one writer appends while queries copy, and the
 * copies are short, so readers and the writer rarely wait on each other.
 */
final class MemSeries {

  enum Outcome {
    APPENDED,
    /** Same timestamp and the same value bits as the newest sample: accepted, nothing stored. */
    UNCHANGED,
    OUT_OF_ORDER,
    DUPLICATE,
    /** Truncation removed the series meanwhile; the caller appends to its successor. */
    REMOVED
  }

  final LabelSet labels;

  /** Its index in the storage's series; the storage's, under its write lock. */
  int id;

  private final ArrayList<Chunk> chunks = new ArrayList<>(1);

  /**
   * Samples before this are gone: truncation keeps a partly expired chunk but never shows its old
   * part.
   */
  private long floorMs;

  private boolean removed;

  MemSeries(LabelSet labels, long floorMs) {
    this.labels = labels;
    this.floorMs = floorMs;
  }

  synchronized Outcome append(long timestampMs, double value) {
    if (removed) {
      return Outcome.REMOVED;
    }
    if (timestampMs < floorMs) {
      return Outcome.OUT_OF_ORDER;
    }
    Chunk head = chunks.isEmpty() ? null : chunks.get(chunks.size() - 1);
    if (head != null) {
      long last = head.lastTimestamp();
      if (timestampMs < last) {
        return Outcome.OUT_OF_ORDER;
      }
      if (timestampMs == last) {
        // Prometheus compares bits, so a staleness marker and an ordinary NaN differ.
        return head.lastValueBits() == Double.doubleToRawLongBits(value)
            ? Outcome.UNCHANGED
            : Outcome.DUPLICATE;
      }
    }
    if (head == null || head.full()) {
      if (head != null) {
        head.seal();
      }
      chunks.add(new Chunk(timestampMs, value));
    } else {
      head.add(timestampMs, value);
    }
    return Outcome.APPENDED;
  }

  /**
   * Forgets samples before {@code minTimeMs}; when none is left, the series is marked removed so a
   * writer holding it retries on a fresh one.
   *
   * @return whether the series was removed
   */
  synchronized boolean truncateBefore(long minTimeMs) {
    floorMs = Math.max(floorMs, minTimeMs);
    int expired = 0;
    while (expired < chunks.size() && chunks.get(expired).lastTimestamp() < floorMs) {
      expired++;
    }
    chunks.subList(0, expired).clear();
    removed = chunks.isEmpty();
    return removed;
  }

  synchronized boolean hasSamples(long minTimeMs, long maxTimeMs) {
    long lo = Math.max(minTimeMs, floorMs);
    for (Chunk chunk : chunks) {
      long first = chunk.firstAtOrAfter(lo);
      if (first != Long.MAX_VALUE) {
        return first <= maxTimeMs;
      }
    }
    return false;
  }

  /**
   * A copy of the samples in {@code [minTimeMs, maxTimeMs]}, or null when there are none; {@code
   * scratch} takes the decoded samples first, so the copy is no longer than they are.
   */
  synchronized StoredSeries read(long minTimeMs, long maxTimeMs, Scratch scratch) {
    long lo = Math.max(minTimeMs, floorMs);
    if (maxTimeMs < lo) {
      return null;
    }
    int bound = 0;
    for (Chunk chunk : chunks) {
      if (overlaps(chunk, lo, maxTimeMs)) {
        bound += chunk.count();
      }
    }
    if (bound == 0) {
      return null;
    }
    scratch.ensure(bound);
    int n = 0;
    for (Chunk chunk : chunks) {
      if (overlaps(chunk, lo, maxTimeMs)) {
        n = chunk.copy(lo, maxTimeMs, scratch.timestamps, scratch.values, n);
      }
    }
    if (n == 0) {
      return null;
    }
    return new StoredSeries(
        labels, Arrays.copyOf(scratch.timestamps, n), Arrays.copyOf(scratch.values, n), n);
  }

  private static boolean overlaps(Chunk chunk, long lo, long hi) {
    return chunk.lastTimestamp() >= lo && chunk.firstTimestamp() <= hi;
  }

  /** One select's room to decode a series into before it is copied out; one thread's. */
  static final class Scratch {
    long[] timestamps = new long[Chunk.MAX_SAMPLES];
    double[] values = new double[Chunk.MAX_SAMPLES];

    void ensure(int n) {
      if (timestamps.length < n) {
        timestamps = new long[n];
        values = new double[n];
      }
    }
  }
}
