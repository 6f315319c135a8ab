package dev.firedrill.promql.eval;

import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.model.LabelSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Prometheus 3.7's experimental {@code anchored} and {@code smoothed} range modifiers. Anchored
 * takes the newest sample at or before the window's start (within the lookback) as the window's
 * first and computes without extrapolation; smoothed interpolates the values at both ends of the
 * window from the samples either side of them (a counter's resets folded in first), and takes an
 * end without a sample on one side as the nearest sample's value. Anchored needs a sample inside
 * the window, smoothed samples on both sides of (or inside) it.
 */
final class ExtendedRange {

  private static final Set<String> ANCHORED =
      Set.of("changes", "delta", "increase", "rate", "resets");
  private static final Set<String> SMOOTHED = Set.of("delta", "increase", "rate");

  private ExtendedRange() {}

  static void check(Expr.RangeMode mode, String function) {
    boolean smoothed = mode == Expr.RangeMode.SMOOTHED;
    Set<String> allowed = smoothed ? SMOOTHED : ANCHORED;
    if (!allowed.contains(function)) {
      throw Evaluator.error(
          (smoothed ? "smoothed" : "anchored")
              + " modifier can only be used with: "
              + String.join(", ", allowed.stream().sorted().toList())
              + " - not with "
              + function);
    }
  }

  static List<Points> apply(
      Evaluator ev, Expr.RangeMode mode, String name, List<Points> series, Expr.MatrixSelector ms) {
    Long at = ev.atTime(ms.selector().at());
    long offset = ms.selector().offsetMs();
    long range = ms.rangeMs();
    long lookback = ev.query.lookbackMs();
    boolean counter = name.equals("rate") || name.equals("increase");
    List<Points> result = new ArrayList<>();
    Set<LabelSet> seen = new HashSet<>();
    for (Points s : series) {
      ev.query.checkDeadline();
      LabelSet labels = DelayedName.drop(s.labels, ev.query);
      Points out = new Points(labels, ev.steps);
      int from = 0;
      int to = 0;
      for (int step = 0; step < ev.steps; step++) {
        long ts = ev.stepTime(step);
        long ref = (at != null ? at : ts) - offset;
        long windowStart = ref - range;
        while (to < s.n && s.t[to] <= ref) {
          to++;
        }
        while (from < to && s.t[from] <= windowStart) {
          from++;
        }
        int first = from > 0 && s.t[from - 1] > windowStart - lookback ? from - 1 : from;
        double value;
        if (mode == Expr.RangeMode.ANCHORED) {
          if (from == to) {
            continue;
          }
          value = anchored(name, s.v, first, to);
        } else {
          int last = to < s.n && s.t[to] <= ref + lookback ? to : to - 1;
          // Samples only before the window, or only after it, give nothing.
          if (last < first || s.t[last] <= windowStart || s.t[first] > ref) {
            continue;
          }
          double[] adjusted = counter ? withoutResets(s.v, first, last) : slice(s.v, first, last);
          double end = valueAt(s.t, adjusted, first, last, ref);
          double begin = valueAt(s.t, adjusted, first, last, windowStart);
          value = end - begin;
        }
        if (name.equals("rate")) {
          value /= range / 1000.0;
        }
        out.add(ts, value);
      }
      if (out.n > 0) {
        if (!seen.add(labels)) {
          throw Evaluator.error("vector cannot contain metrics with the same labelset");
        }
        result.add(out);
      }
    }
    return result;
  }

  private static double anchored(String name, double[] v, int first, int to) {
    return switch (name) {
      case "delta" -> v[to - 1] - v[first];
      case "increase", "rate" -> {
        double[] adjusted = withoutResets(v, first, to - 1);
        yield adjusted[adjusted.length - 1] - adjusted[0];
      }
      case "resets" -> {
        int resets = 0;
        for (int i = first + 1; i < to; i++) {
          resets += v[i] < v[i - 1] ? 1 : 0;
        }
        yield resets;
      }
      default -> {
        int changes = 0;
        for (int i = first + 1; i < to; i++) {
          boolean same = v[i] == v[i - 1] || (Double.isNaN(v[i]) && Double.isNaN(v[i - 1]));
          changes += same ? 0 : 1;
        }
        yield changes;
      }
    };
  }

  /** {@code v[first..last]} with each reset's drop added back, as a counter that never fell. */
  private static double[] withoutResets(double[] v, int first, int last) {
    double[] adjusted = new double[last - first + 1];
    double correction = 0;
    for (int i = first; i <= last; i++) {
      if (i > first && v[i] < v[i - 1]) {
        correction += v[i - 1];
      }
      adjusted[i - first] = v[i] + correction;
    }
    return adjusted;
  }

  private static double[] slice(double[] v, int first, int last) {
    return java.util.Arrays.copyOfRange(v, first, last + 1);
  }

  /** The value at {@code x}, linear between neighbouring samples, flat beyond the outermost. */
  private static double valueAt(long[] t, double[] adjusted, int first, int last, long x) {
    if (x <= t[first]) {
      return adjusted[0];
    }
    if (x >= t[last]) {
      return adjusted[last - first];
    }
    int i = first;
    while (t[i + 1] < x) {
      i++;
    }
    double a = adjusted[i - first];
    double b = adjusted[i + 1 - first];
    return a + (b - a) * (x - t[i]) / (double) (t[i + 1] - t[i]);
  }
}
