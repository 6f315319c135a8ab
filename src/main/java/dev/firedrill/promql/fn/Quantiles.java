package dev.firedrill.promql.fn;

/** Prometheus's quantile arithmetic, shared by {@code quantile}, {@code quantile_over_time} and histograms. */
public final class Quantiles {

  private Quantiles() {}

  /** {@code quantile(φ, values)} as Prometheus computes it: φ<0 gives -Inf, φ>1 +Inf, NaN φ NaN; no values NaN. */
  public static double quantile(double phi, double[] values, int count) {
    throw new UnsupportedOperationException("not written yet");
  }

  /**
   * {@code histogram_quantile(φ, buckets)} over one classic histogram's buckets (upper bounds, which
   * may be unsorted and include +Inf, with cumulative counts), with Prometheus's handling of missing
   * +Inf, non-monotonic counts and duplicate bounds. NaN when Prometheus gives NaN.
   */
  public static double histogramQuantile(double phi, double[] upperBounds, double[] counts, int count) {
    throw new UnsupportedOperationException("not written yet");
  }
}
