package dev.firedrill.promql.fn;

import java.util.OptionalDouble;
import java.util.Set;

/**
 * The functions of a range vector, one series' window at a time: {@code rate irate increase delta
 * idelta deriv predict_linear resets changes holt_winters double_exponential_smoothing} and every
 * {@code *_over_time} (but {@code absent_over_time}, which the evaluator answers from presence
 * alone). The window is {@code t[from..to)}, {@code v[from..to)}, stale markers already removed,
 * selected from the range {@code rangeStartMs} to {@code rangeEndMs} (Prometheus v2.42 keeps a
 * sample exactly at the start, v3 does not); rate and friends extrapolate to those two bounds.
 * Empty means the function gives no sample for this series.
 */
public final class RangeFunctions {

  private static final Set<String> NAMES =
      Set.of(
          "rate",
          "increase",
          "delta",
          "irate",
          "idelta",
          "deriv",
          "predict_linear",
          "resets",
          "changes",
          "holt_winters",
          "double_exponential_smoothing",
          "first_over_time",
          "mad_over_time",
          "ts_of_first_over_time",
          "ts_of_last_over_time",
          "ts_of_max_over_time",
          "ts_of_min_over_time",
          "avg_over_time",
          "sum_over_time",
          "min_over_time",
          "max_over_time",
          "count_over_time",
          "last_over_time",
          "present_over_time",
          "stddev_over_time",
          "stdvar_over_time",
          "quantile_over_time");

  private RangeFunctions() {}

  /** Whether {@link #apply} computes this function ({@code absent_over_time} is not among them). */
  public static boolean isRangeFunction(String name) {
    return NAMES.contains(name);
  }

  /**
   * As {@link #apply(String, long[], double[], int, int, long, long, long, double[])} evaluated at
   * the end of the range, which is right unless the selector has an {@code offset} or {@code @}.
   *
   * @param scalarArgs the function's scalar arguments in order (predict_linear's t,
   *     quantile_over_time's φ, ...), already evaluated for this step
   */
  public static OptionalDouble apply(
      String name,
      long[] t,
      double[] v,
      int from,
      int to,
      long rangeStartMs,
      long rangeEndMs,
      double[] scalarArgs) {
    return apply(name, t, v, from, to, rangeStartMs, rangeEndMs, rangeEndMs, scalarArgs);
  }

  /**
   * @param evalTimeMs the step's evaluation time: predict_linear predicts from it, not from the end
   *     of the range, which an {@code offset} or {@code @} moves away from it
   */
  public static OptionalDouble apply(
      String name,
      long[] t,
      double[] v,
      int from,
      int to,
      long rangeStartMs,
      long rangeEndMs,
      long evalTimeMs,
      double[] scalarArgs) {
    return apply(name, t, v, from, to, rangeStartMs, rangeEndMs, evalTimeMs, scalarArgs, false);
  }

  /**
   * @param prometheus3 rate, increase and delta extrapolate as Prometheus 3 does (the gap to a
   *     boundary is limited before a counter's zero point is), else as v2.42
   */
  public static OptionalDouble apply(
      String name,
      long[] t,
      double[] v,
      int from,
      int to,
      long rangeStartMs,
      long rangeEndMs,
      long evalTimeMs,
      double[] scalarArgs,
      boolean prometheus3) {
    return apply(
        name,
        t,
        v,
        null,
        from,
        to,
        rangeStartMs,
        rangeEndMs,
        evalTimeMs,
        scalarArgs,
        prometheus3,
        () -> {});
  }

  /**
   * @param st the samples' start timestamps (0: unknown), or null: rate, increase, irate and resets
   *     then read them as Prometheus 3's {@code use-start-timestamps} does
   * @param startTimeOverlap run when rate or increase finds a start timestamp overlapping the
   *     previous sample
   */
  public static OptionalDouble apply(
      String name,
      long[] t,
      double[] v,
      long[] st,
      int from,
      int to,
      long rangeStartMs,
      long rangeEndMs,
      long evalTimeMs,
      double[] scalarArgs,
      boolean prometheus3,
      Runnable startTimeOverlap) {
    if (!NAMES.contains(name)) {
      throw new IllegalArgumentException("not a range vector function: " + name);
    }
    requireArgs(name, scalarArgs);
    if (to <= from) {
      return OptionalDouble.empty();
    }
    return switch (name) {
      case "rate", "increase" ->
          Rates.extrapolated(
              t,
              v,
              st,
              from,
              to,
              rangeStartMs,
              rangeEndMs,
              true,
              name.equals("rate"),
              prometheus3,
              startTimeOverlap);
      case "delta" ->
          Rates.extrapolated(t, v, from, to, rangeStartMs, rangeEndMs, false, false, prometheus3);
      case "irate" -> Rates.instant(t, v, st, from, to, true);
      case "idelta" -> Rates.instant(t, v, null, from, to, false);
      // The first sample's time as intercept keeps x small, where doubles are precise.
      case "deriv" ->
          to - from < 2
              ? OptionalDouble.empty()
              : OptionalDouble.of(LinearRegression.fit(t, v, from, to, t[from]).slope);
      case "predict_linear" ->
          to - from < 2
              ? OptionalDouble.empty()
              : predictLinear(t, v, from, to, evalTimeMs, scalarArgs[0]);
      case "holt_winters", "double_exponential_smoothing" ->
          HoltWinters.smooth(v, from, to, scalarArgs[0], scalarArgs[1]);
      case "first_over_time" -> OptionalDouble.of(v[from]);
      case "mad_over_time" -> OptionalDouble.of(OverTime.mad(v, from, to));
      case "ts_of_first_over_time" -> OptionalDouble.of(t[from] / 1000.0);
      case "ts_of_last_over_time" -> OptionalDouble.of(t[to - 1] / 1000.0);
      case "ts_of_max_over_time" -> OptionalDouble.of(t[OverTime.argMax(v, from, to)] / 1000.0);
      case "ts_of_min_over_time" -> OptionalDouble.of(t[OverTime.argMin(v, from, to)] / 1000.0);
      case "resets" -> OptionalDouble.of(OverTime.resets(t, v, st, from, to));
      case "changes" -> OptionalDouble.of(OverTime.changes(v, from, to));
      case "avg_over_time" ->
          OptionalDouble.of(
              prometheus3 ? OverTime.avgDirect(v, from, to) : OverTime.avg(v, from, to));
      case "sum_over_time" -> OptionalDouble.of(OverTime.sum(v, from, to));
      case "min_over_time" -> OptionalDouble.of(OverTime.min(v, from, to));
      case "max_over_time" -> OptionalDouble.of(OverTime.max(v, from, to));
      case "count_over_time" -> OptionalDouble.of(to - from);
      case "last_over_time" -> OptionalDouble.of(v[to - 1]);
      case "present_over_time" -> OptionalDouble.of(1);
      case "stddev_over_time" -> OptionalDouble.of(Math.sqrt(OverTime.stdvar(v, from, to)));
      case "stdvar_over_time" -> OptionalDouble.of(OverTime.stdvar(v, from, to));
      case "quantile_over_time" -> OptionalDouble.of(OverTime.quantile(scalarArgs[0], v, from, to));
      default -> throw new IllegalStateException("range vector function without a body: " + name);
    };
  }

  private static OptionalDouble predictLinear(
      long[] t, double[] v, int from, int to, long evalTimeMs, double seconds) {
    LinearRegression fit = LinearRegression.fit(t, v, from, to, evalTimeMs);
    return OptionalDouble.of(fit.slope * seconds + fit.intercept);
  }

  private static void requireArgs(String name, double[] scalarArgs) {
    int expected =
        switch (name) {
          case "predict_linear", "quantile_over_time" -> 1;
          case "holt_winters", "double_exponential_smoothing" -> 2;
          default -> 0;
        };
    if (scalarArgs.length != expected) {
      throw new IllegalArgumentException(
          name + " takes " + expected + " scalar argument(s), got " + scalarArgs.length);
    }
  }
}
