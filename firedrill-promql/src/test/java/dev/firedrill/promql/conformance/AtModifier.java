package dev.firedrill.promql.conformance;

import dev.firedrill.promql.ast.Expr;
import java.util.Set;

/**
 * Prometheus's test runner also evaluates every query with {@code @ t} on each selector and
 * subquery (but inside a subquery that has one) at other times, where the result must not change;
 * queries with functions of the evaluation time are not rewritten.
 */
final class AtModifier {

  private static final Set<String> UNSAFE =
      Set.of(
          "days_in_month",
          "day_of_month",
          "day_of_week",
          "day_of_year",
          "hour",
          "minute",
          "month",
          "year",
          "end",
          "predict_linear",
          "range",
          "start",
          "step",
          "time",
          "timestamp");

  private boolean unsafe;

  private AtModifier() {}

  /** The rewritten query, or null when it calls a function of the evaluation time. */
  static Expr pin(Expr expr, long timeMs) {
    AtModifier m = new AtModifier();
    Expr pinned = m.rewrite(expr, new Expr.At(Expr.At.Kind.TIMESTAMP, timeMs));
    return m.unsafe ? null : pinned;
  }

  /** The times Prometheus's runner evaluates a pinned query at besides the original one. */
  static long[] times(long timeMs) {
    return timeMs == 0
        ? new long[] {-1000, 0, 1000}
        : new long[] {-10 * timeMs, 0, timeMs / 5, timeMs, 10 * timeMs};
  }

  private Expr rewrite(Expr e, Expr.At at) {
    if (e instanceof Expr.Paren p) {
      return new Expr.Paren(rewrite(p.expr(), at));
    }
    if (e instanceof Expr.Unary u) {
      return new Expr.Unary(u.negate(), rewrite(u.expr(), at));
    }
    if (e instanceof Expr.Binary b) {
      return new Expr.Binary(
          b.op(), rewrite(b.lhs(), at), rewrite(b.rhs(), at), b.returnBool(), b.matching());
    }
    if (e instanceof Expr.Aggregate a) {
      return new Expr.Aggregate(
          a.op(),
          rewrite(a.expr(), at),
          a.param() == null ? null : rewrite(a.param(), at),
          a.grouping(),
          a.without());
    }
    if (e instanceof Expr.Call c) {
      unsafe |= UNSAFE.contains(c.function().name());
      return new Expr.Call(c.function(), c.args().stream().map(a -> rewrite(a, at)).toList());
    }
    // The rewritten nodes keep all but their @: offsets and ranges as written, range modifiers.
    if (e instanceof Expr.VectorSelector vs) {
      return vs.at() != null ? vs : vs.withAt(at);
    }
    if (e instanceof Expr.MatrixSelector ms) {
      return new Expr.MatrixSelector(
          (Expr.VectorSelector) rewrite(ms.selector(), at), ms.rangeMs(), ms.rangeExpr());
    }
    if (e instanceof Expr.Subquery sq) {
      return sq.at() != null ? sq : sq.with(sq.expr(), sq.offsetMs(), sq.offsetExpr(), at);
    }
    return e;
  }
}
