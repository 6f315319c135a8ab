package dev.firedrill.promql.fn;

import java.util.Arrays;
import java.util.Comparator;

/**
 * One classic histogram's buckets, sorted by upper bound, as {@code bucketQuantile} prepares them.
 */
final class Buckets {

  private final double[] bounds;
  private final double[] counts;
  private int size;

  private Buckets(double[] bounds, double[] counts) {
    this.bounds = bounds;
    this.counts = counts;
    this.size = bounds.length;
  }

  static Buckets sorted(double[] upperBounds, double[] cumulativeCounts, int count) {
    Integer[] order = new Integer[count];
    for (int i = 0; i < count; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingDouble(i -> upperBounds[i]));
    double[] bounds = new double[count];
    double[] counts = new double[count];
    for (int i = 0; i < count; i++) {
      bounds[i] = upperBounds[order[i]];
      counts[i] = cumulativeCounts[order[i]];
    }
    return new Buckets(bounds, counts);
  }

  int size() {
    return size;
  }

  double bound(int i) {
    return bounds[i];
  }

  double count(int i) {
    return counts[i];
  }

  /** Buckets with the same bound (say le="1" and le="1.0") are one bucket holding both counts. */
  void coalesce() {
    int out = 0;
    for (int i = 1; i < size; i++) {
      if (bounds[i] == bounds[out]) {
        counts[out] += counts[i];
      } else {
        out++;
        bounds[out] = bounds[i];
        counts[out] = counts[i];
      }
    }
    size = out + 1;
  }

  /**
   * Raises each count to the highest before it: buckets scraped at slightly different moments can
   * decrease, which a cumulative histogram cannot, and interpolation would go backwards.
   */
  /** Whether a count was raised by more than Prometheus 3's tolerance of 1e-12, relative. */
  boolean ensureMonotonic() {
    boolean forced = false;
    double max = counts[0];
    for (int i = 1; i < size; i++) {
      if (counts[i] > max) {
        max = counts[i];
      } else if (counts[i] < max) {
        forced |= (max - counts[i]) / (Math.abs(max) + Math.abs(counts[i])) >= 1e-12;
        counts[i] = max;
      }
    }
    return forced;
  }

  /**
   * The first bucket but the last whose count reaches the rank, or the last; a binary search like
   * Go's {@code sort.Search}, so that NaN counts lead where they lead in Prometheus.
   */
  int firstReaching(double rank) {
    int lo = 0;
    int hi = size - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (!(counts[mid] >= rank)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
