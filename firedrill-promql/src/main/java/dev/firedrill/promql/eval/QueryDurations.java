package dev.firedrill.promql.eval;

import dev.firedrill.promql.ast.DurationExpr;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.model.PromqlException;
import java.util.ArrayList;
import java.util.List;

/**
 * Prometheus 3's duration expressions that name the query ({@code step()}, {@code range()}): the
 * parser leaves their ranges, steps and offsets at 0, and each query fixes them from its own step
 * and range before evaluating, as Prometheus's engine does. A tree without any is returned as is.
 */
final class QueryDurations {

  private final double stepSeconds;
  private final double rangeSeconds;

  private QueryDurations(long stepMs, long rangeMs) {
    this.stepSeconds = stepMs / 1000.0;
    this.rangeSeconds = rangeMs / 1000.0;
  }

  /**
   * {@code expr} with every query-dependent duration fixed; an instant query has step and range 0.
   */
  static Expr resolve(Expr expr, long stepMs, long rangeMs) {
    return new QueryDurations(stepMs, rangeMs).walk(expr);
  }

  private Expr walk(Expr e) {
    if (e instanceof Expr.VectorSelector vs) {
      return selector(vs);
    }
    if (e instanceof Expr.MatrixSelector ms) {
      DurationExpr r = ms.rangeExpr();
      Expr.VectorSelector vs = selector(ms.selector());
      if (vs == ms.selector() && (r == null || !r.dependsOnQuery())) {
        return ms;
      }
      long range = r != null && r.dependsOnQuery() ? positive(r, "range") : ms.rangeMs();
      return new Expr.MatrixSelector(vs, range, r);
    }
    if (e instanceof Expr.Subquery sq) {
      long range =
          sq.rangeExpr() != null && sq.rangeExpr().dependsOnQuery()
              ? positive(sq.rangeExpr(), "range")
              : sq.rangeMs();
      long step =
          sq.stepExpr() != null && sq.stepExpr().dependsOnQuery()
              ? positive(sq.stepExpr(), "step")
              : sq.stepMs();
      long offset =
          sq.offsetExpr() != null && sq.offsetExpr().dependsOnQuery()
              ? millis(sq.offsetExpr())
              : sq.offsetMs();
      return new Expr.Subquery(
          walk(sq.expr()),
          range,
          step,
          offset,
          sq.at(),
          sq.rangeExpr(),
          sq.stepExpr(),
          sq.offsetExpr());
    }
    if (e instanceof Expr.Paren p) {
      return new Expr.Paren(walk(p.expr()));
    }
    if (e instanceof Expr.Unary u) {
      return new Expr.Unary(u.negate(), walk(u.expr()));
    }
    if (e instanceof Expr.Binary b) {
      return new Expr.Binary(b.op(), walk(b.lhs()), walk(b.rhs()), b.returnBool(), b.matching());
    }
    if (e instanceof Expr.Aggregate a) {
      return new Expr.Aggregate(
          a.op(),
          walk(a.expr()),
          a.param() == null ? null : walk(a.param()),
          a.grouping(),
          a.without());
    }
    if (e instanceof Expr.Call c) {
      List<Expr> args = new ArrayList<>(c.args().size());
      for (Expr a : c.args()) {
        args.add(walk(a));
      }
      return new Expr.Call(c.function(), args);
    }
    return e;
  }

  private Expr.VectorSelector selector(Expr.VectorSelector vs) {
    DurationExpr o = vs.offsetExpr();
    return o != null && o.dependsOnQuery() ? vs.withOffset(millis(o), o) : vs;
  }

  private long millis(DurationExpr d) {
    return (long) (d.seconds(stepSeconds, rangeSeconds) * 1000);
  }

  private long positive(DurationExpr d, String what) {
    long ms = millis(d);
    if (ms <= 0) {
      throw new PromqlException(
          PromqlException.ErrorType.BAD_DATA,
          what + " " + d.text() + " must be greater than 0, got " + ms / 1000.0 + "s");
    }
    return ms;
  }
}
