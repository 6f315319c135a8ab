package dev.firedrill.promql.fn;

import java.util.OptionalDouble;

/** {@code rate increase delta} (Prometheus's {@code extrapolatedRate}) and {@code irate idelta}. */
final class Rates {

  private Rates() {}

  static OptionalDouble extrapolated(
      long[] t,
      double[] v,
      int from,
      int to,
      long rangeStartMs,
      long rangeEndMs,
      boolean isCounter,
      boolean isRate,
      boolean prometheus3) {
    if (to - from < 2) {
      return OptionalDouble.empty();
    }
    int last = to - 1;
    double result = v[last] - v[from];
    if (isCounter) {
      double prev = v[from];
      for (int i = from + 1; i < to; i++) {
        if (v[i] < prev) {
          result += prev;
        }
        prev = v[i];
      }
    }
    double durationToStart = (t[from] - rangeStartMs) / 1000.0;
    double durationToEnd = (rangeEndMs - t[last]) / 1000.0;
    double sampledInterval = (t[last] - t[from]) / 1000.0;
    double averageInterval = sampledInterval / (to - from - 1);

    // A gap to a boundary shorter than 1.1 intervals means the series most likely goes on past
    // it; a longer gap means it starts or ends inside the range, half an interval from its samples.
    double threshold = averageInterval * 1.1;
    if (prometheus3) {
      // Prometheus 3 limits the gap first and then stops at the counter's zero point.
      if (durationToStart >= threshold) {
        durationToStart = averageInterval / 2;
      }
      durationToStart = untilZero(isCounter, result, v[from], sampledInterval, durationToStart);
      if (durationToEnd >= threshold) {
        durationToEnd = averageInterval / 2;
      }
      double factor = (sampledInterval + durationToStart + durationToEnd) / sampledInterval;
      if (isRate) {
        factor /= (rangeEndMs - rangeStartMs) / 1000.0;
      }
      return OptionalDouble.of(result * factor);
    }
    // A counter cannot have been below zero, so extrapolating towards the start stops where the
    // line through the samples reaches zero.
    durationToStart = untilZero(isCounter, result, v[from], sampledInterval, durationToStart);
    double extrapolateTo = sampledInterval;
    extrapolateTo += durationToStart < threshold ? durationToStart : averageInterval / 2;
    extrapolateTo += durationToEnd < threshold ? durationToEnd : averageInterval / 2;
    double factor = extrapolateTo / sampledInterval;
    if (isRate) {
      factor /= (rangeEndMs - rangeStartMs) / 1000.0;
    }
    return OptionalDouble.of(result * factor);
  }

  private static double untilZero(
      boolean isCounter, double result, double first, double sampledInterval, double toStart) {
    if (isCounter && result > 0 && first >= 0) {
      double durationToZero = sampledInterval * (first / result);
      return Math.min(durationToZero, toStart);
    }
    return toStart;
  }

  static OptionalDouble instant(long[] t, double[] v, int from, int to, boolean isRate) {
    if (to - from < 2) {
      return OptionalDouble.empty();
    }
    double lastValue = v[to - 1];
    double previousValue = v[to - 2];
    double result = isRate && lastValue < previousValue ? lastValue : lastValue - previousValue;
    long interval = t[to - 1] - t[to - 2];
    if (interval == 0) {
      return OptionalDouble.empty();
    }
    if (isRate) {
      result /= interval / 1000.0;
    }
    return OptionalDouble.of(result);
  }
}
