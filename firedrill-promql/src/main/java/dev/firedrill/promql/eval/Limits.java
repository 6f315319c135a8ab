package dev.firedrill.promql.eval;

import dev.firedrill.format.GoFloat;
import dev.firedrill.promql.ast.AggregateOp;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.fn.LabelsHash;
import dev.firedrill.promql.model.LabelSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Prometheus 3's {@code limitk(k, v)} (the first k series of each group, in the input's order) and
 * {@code limit_ratio(r, v)} (the series whose label hash, as a fraction, lies below r, or for a
 * negative r at or above 1 + r, so {@code limit_ratio(r)} and {@code limit_ratio(-(1 - r))} split
 * the series). Both keep each kept sample whole, labels and value.
 */
final class Limits {

  private static final double MAX_INT64 = 9223372036854774784.0;
  private static final double MIN_INT64 = -9223372036854775808.0;

  private Limits() {}

  static List<Points> of(Evaluator ev, Expr.Aggregate a) {
    Aggregation grouping = new Aggregation(a.op(), a.grouping(), a.without(), ev.query.compat());
    List<Points> input = ev.eval(a.expr());
    List<Points> param = ev.eval(a.param());
    LabelSet[] groupOf = new LabelSet[input.size()];
    double[] fraction = new double[input.size()];
    for (int i = 0; i < groupOf.length; i++) {
      groupOf[i] = grouping.groupOf(input.get(i).labels);
      fraction[i] =
          a.op() == AggregateOp.LIMIT_RATIO
              ? LabelsHash.fraction(DelayedName.strip(input.get(i).labels))
              : 0;
    }
    Map<LabelSet, Long> kept = new HashMap<>();
    return ev.stepwise(
        List.of(input, param),
        (in, step, ts, out) -> {
          StepVector v = in[0];
          double p = in[1].size == 0 ? Double.NaN : in[1].values[0];
          if (a.op() == AggregateOp.LIMITK) {
            long k = k(p);
            kept.clear();
            for (int i = 0; i < v.size && k > 0; i++) {
              long n = kept.merge(groupOf[v.series[i]], 1L, Long::sum);
              if (n <= k) {
                out.add(v.labels[i], v.values[i], v.series[i]);
              }
            }
            return;
          }
          double r = ratio(p);
          for (int i = 0; i < v.size; i++) {
            double f = fraction[v.series[i]];
            if ((r >= 0 && f < r) || (r < 0 && f >= 1.0 + r)) {
              out.add(v.labels[i], v.values[i], v.series[i]);
            }
          }
        });
  }

  private static long k(double p) {
    if (Double.isNaN(p)) {
      throw Evaluator.error("Parameter value is NaN");
    }
    if (!(p <= MAX_INT64 && p >= MIN_INT64)) {
      throw Evaluator.error("Scalar value " + GoFloat.sprint(p) + " overflows int64");
    }
    return (long) p;
  }

  /** The ratio, clamped to [-1, 1] as Prometheus clamps it (with a warning this engine omits). */
  private static double ratio(double p) {
    if (Double.isNaN(p)) {
      throw Evaluator.error("Ratio value is NaN");
    }
    return Math.max(-1.0, Math.min(1.0, p));
  }
}
