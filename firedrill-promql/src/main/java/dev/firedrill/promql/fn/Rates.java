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
    return extrapolated(
        t, v, null, from, to, rangeStartMs, rangeEndMs, isCounter, isRate, prometheus3, () -> {});
  }

  /**
   * As above; {@code st}, when not null, the samples' start timestamps (0: unknown), which a
   * counter's rate reads as Prometheus 3 with {@code use-start-timestamps} does: a start timestamp
   * past the previous sample is a reset, and a first sample whose start lies inside the range
   * counts from a zero there instead of being extrapolated (so one sample is enough). {@code
   * overlap} runs when a start timestamp overlaps the previous sample.
   */
  static OptionalDouble extrapolated(
      long[] t,
      double[] v,
      long[] st,
      int from,
      int to,
      long rangeStartMs,
      long rangeEndMs,
      boolean isCounter,
      boolean isRate,
      boolean prometheus3,
      Runnable overlap) {
    boolean starts = st != null && isCounter;
    if (to - from < (starts ? 1 : 2)) {
      return OptionalDouble.empty();
    }
    int last = to - 1;
    double result = v[last] - v[from];
    if (isCounter) {
      boolean warned = false;
      for (int i = from + 1; i < to; i++) {
        if (starts && !warned && overlaps(st[i - 1], t[i - 1], st[i])) {
          overlap.run();
          warned = true;
        }
        if (v[i] < v[i - 1] || (starts && startReset(st[i - 1], t[i - 1], st[i], t[i]))) {
          result += v[i - 1];
        }
      }
    }
    double durationToStart = (t[from] - rangeStartMs) / 1000.0;
    double durationToEnd = (rangeEndMs - t[last]) / 1000.0;
    double sampledInterval = (t[last] - t[from]) / 1000.0;
    double averageInterval = to - from > 1 ? sampledInterval / (to - from - 1) : 0;

    // A gap to a boundary shorter than 1.1 intervals means the series most likely goes on past
    // it; a longer gap means it starts or ends inside the range, half an interval from its samples.
    double threshold = averageInterval * 1.1;
    if (starts && st[from] != 0 && st[from] > rangeStartMs && st[from] < t[from]) {
      // The counter was zero at its start: no extrapolation towards the range's start.
      durationToStart = 0;
      sampledInterval = (t[last] - st[from]) / 1000.0;
      result += v[from];
    } else if (to - from < 2) {
      return OptionalDouble.empty();
    } else if (prometheus3) {
      // Prometheus 3 limits the gap first and then stops at the counter's zero point.
      if (durationToStart >= threshold) {
        durationToStart = averageInterval / 2;
      }
      durationToStart = untilZero(isCounter, result, v[from], sampledInterval, durationToStart);
    }
    if (prometheus3) {
      if (durationToEnd >= threshold) {
        durationToEnd = averageInterval / 2;
      }
      double factor =
          sampledInterval == 0
              ? 1
              : (sampledInterval + durationToStart + durationToEnd) / sampledInterval;
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

  /** irate and idelta; {@code st} (or null) the start timestamps, a reset for irate as above. */
  static OptionalDouble instant(long[] t, double[] v, long[] st, int from, int to, boolean isRate) {
    if (to - from < 2) {
      return OptionalDouble.empty();
    }
    int a = to - 2;
    int b = to - 1;
    double lastValue = v[b];
    double previousValue = v[a];
    boolean reset =
        lastValue < previousValue || (st != null && startReset(st[a], t[a], st[b], t[b]));
    double result = isRate && reset ? lastValue : lastValue - previousValue;
    long interval = t[to - 1] - t[to - 2];
    if (interval == 0) {
      return OptionalDouble.empty();
    }
    if (isRate) {
      result /= interval / 1000.0;
    }
    return OptionalDouble.of(result);
  }

  /**
   * Whether a start timestamp says the counter restarted between the previous sample and this one:
   * it lies after the previous sample (and before this one; 0 is unknown, equal to this one is
   * OpenTelemetry's unknown start), or on the previous sample when that one had its own start
   * before it (a delta series; an unknown or an impossible earlier start is a cumulative one).
   */
  static boolean startReset(long prevStart, long prevT, long start, long t) {
    if (start == 0 || start >= t || start < prevT) {
      return false;
    }
    if (start > prevT) {
      return true;
    }
    return prevStart <= prevT && prevStart != 0 && prevStart != prevT;
  }

  /** A start timestamp before the previous sample that is not the previous one's own start. */
  static boolean overlaps(long prevStart, long prevT, long start) {
    return start != 0 && start < prevT && start != prevStart;
  }
}
