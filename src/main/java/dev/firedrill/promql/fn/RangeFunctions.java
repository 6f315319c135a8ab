package dev.firedrill.promql.fn;

import java.util.OptionalDouble;

/**
 * The functions of a range vector, one series' window at a time: {@code rate irate increase delta
 * idelta deriv predict_linear resets changes} and every {@code *_over_time} (but
 * {@code absent_over_time}, which the evaluator answers from presence alone). The window is
 * {@code t[from..to)}, {@code v[from..to)}, stale markers already removed; the selected range is
 * {@code (rangeStartMs, rangeEndMs]}. Empty means the function gives no sample for this series.
 */
public final class RangeFunctions {

  private RangeFunctions() {}

  public static boolean isRangeFunction(String name) {
    throw new UnsupportedOperationException("not written yet");
  }

  /**
   * @param scalarArgs the function's scalar arguments in order (predict_linear's t,
   *     quantile_over_time's φ, ...), already evaluated for this step
   */
  public static OptionalDouble apply(String name, long[] t, double[] v, int from, int to,
      long rangeStartMs, long rangeEndMs, double[] scalarArgs) {
    throw new UnsupportedOperationException("not written yet");
  }
}
