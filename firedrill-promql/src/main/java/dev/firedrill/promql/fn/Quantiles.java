package dev.firedrill.promql.fn;

import java.util.Arrays;

/**
 * Prometheus's quantile arithmetic, shared by {@code quantile}, {@code quantile_over_time} and
 * histograms.
 */
public final class Quantiles {

  private Quantiles() {}

  /**
   * {@code quantile(φ, values[0..count))} as Prometheus computes it: φ<0 gives -Inf, φ>1 +Inf, NaN
   * φ NaN; no values NaN. NaN values sort below all others. The array is left as it was.
   */
  public static double quantile(double phi, double[] values, int count) {
    return quantile(phi, values, 0, count);
  }

  /** The quantile of {@code values[from..to)}. */
  static double quantile(double phi, double[] values, int from, int to) {
    int count = to - from;
    if (count == 0 || Double.isNaN(phi)) {
      return Double.NaN;
    }
    if (phi < 0) {
      return Double.NEGATIVE_INFINITY;
    }
    if (phi > 1) {
      return Double.POSITIVE_INFINITY;
    }
    double[] sorted = sortNaNFirst(values, from, to);
    double n = count;
    double rank = phi * (n - 1);
    double lowerIndex = Math.max(0, Math.floor(rank));
    double upperIndex = Math.min(n - 1, lowerIndex + 1);
    double weight = rank - Math.floor(rank);
    return sorted[(int) lowerIndex] * (1 - weight) + sorted[(int) upperIndex] * weight;
  }

  /**
   * Prometheus orders NaN below every number; Java's sort puts it above, so the NaNs move to the
   * front.
   */
  private static double[] sortNaNFirst(double[] values, int from, int to) {
    int count = to - from;
    double[] sorted = Arrays.copyOfRange(values, from, to);
    Arrays.sort(sorted);
    int numbers = count;
    while (numbers > 0 && Double.isNaN(sorted[numbers - 1])) {
      numbers--;
    }
    if (numbers == count) {
      return sorted;
    }
    double[] out = new double[count];
    Arrays.fill(out, 0, count - numbers, Double.NaN);
    System.arraycopy(sorted, 0, out, count - numbers, numbers);
    return out;
  }

  /**
   * {@code histogram_quantile(φ, buckets)} over one classic histogram's buckets (upper bounds,
   * which may be unsorted and include +Inf, with cumulative counts), with Prometheus's handling of
   * missing +Inf, non-monotonic counts and duplicate bounds. NaN when Prometheus gives NaN. The
   * arrays are left as they were.
   */
  public static double histogramQuantile(
      double phi, double[] upperBounds, double[] counts, int count) {
    return histogramQuantile(phi, upperBounds, counts, count, () -> {});
  }

  /**
   * As above; {@code forcedMonotonic} runs when a bucket's count had to be raised to its
   * predecessor's by more than a float's rounding (Prometheus 3's info annotation).
   */
  public static double histogramQuantile(
      double phi, double[] upperBounds, double[] counts, int count, Runnable forcedMonotonic) {
    if (Double.isNaN(phi)) {
      return Double.NaN;
    }
    if (phi < 0) {
      return Double.NEGATIVE_INFINITY;
    }
    if (phi > 1) {
      return Double.POSITIVE_INFINITY;
    }
    if (count == 0) {
      return Double.NaN;
    }
    Buckets buckets = Buckets.sorted(upperBounds, counts, count);
    if (buckets.bound(buckets.size() - 1) != Double.POSITIVE_INFINITY) {
      return Double.NaN;
    }
    buckets.coalesce();
    if (buckets.ensureMonotonic()) {
      forcedMonotonic.run();
    }
    int n = buckets.size();
    if (n < 2) {
      return Double.NaN;
    }
    double observations = buckets.count(n - 1);
    if (observations == 0) {
      return Double.NaN;
    }
    double rank = phi * observations;
    int b = buckets.firstReaching(rank);
    if (b == n - 1) {
      // The rank lies in the +Inf bucket, which has no width to interpolate in.
      return buckets.bound(n - 2);
    }
    // The lowest bucket has no lower bound to interpolate from unless 0 lies below it.
    if (b == 0 && buckets.bound(0) <= 0) {
      return buckets.bound(0);
    }
    double bucketStart = 0;
    double bucketEnd = buckets.bound(b);
    double inBucket = buckets.count(b);
    if (b > 0) {
      bucketStart = buckets.bound(b - 1);
      inBucket -= buckets.count(b - 1);
      rank -= buckets.count(b - 1);
    }
    return bucketStart + (bucketEnd - bucketStart) * (rank / inBucket);
  }
}
