package dev.firedrill.embedded.storage;

import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.StoredSeries;
import java.util.ArrayList;

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
        return Double.doubleToRawLongBits(head.lastValue()) == Double.doubleToRawLongBits(value)
            ? Outcome.UNCHANGED
            : Outcome.DUPLICATE;
      }
    }
    if (head == null || !head.accepts(timestampMs)) {
      head = new Chunk(timestampMs);
      chunks.add(head);
    }
    head.add(timestampMs, value);
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
      int i = chunk.firstAtOrAfter(lo);
      if (i < chunk.count()) {
        return chunk.timestamp(i) <= maxTimeMs;
      }
    }
    return false;
  }

  /** A copy of the samples in {@code [minTimeMs, maxTimeMs]}, or null when there are none. */
  synchronized StoredSeries read(long minTimeMs, long maxTimeMs) {
    long lo = Math.max(minTimeMs, floorMs);
    if (maxTimeMs < lo) {
      return null;
    }
    int n = 0;
    int size = chunks.size();
    int[] from = new int[size];
    int[] to = new int[size];
    for (int c = 0; c < size; c++) {
      Chunk chunk = chunks.get(c);
      if (chunk.lastTimestamp() < lo || chunk.timestamp(0) > maxTimeMs) {
        continue;
      }
      from[c] = chunk.firstAtOrAfter(lo);
      to[c] = maxTimeMs == Long.MAX_VALUE ? chunk.count() : chunk.firstAtOrAfter(maxTimeMs + 1);
      n += to[c] - from[c];
    }
    if (n == 0) {
      return null;
    }
    long[] timestamps = new long[n];
    double[] values = new double[n];
    int at = 0;
    for (int c = 0; c < size; c++) {
      if (to[c] > from[c]) {
        chunks.get(c).copy(from[c], to[c], timestamps, values, at);
        at += to[c] - from[c];
      }
    }
    return new StoredSeries(labels, timestamps, values, n);
  }
}
