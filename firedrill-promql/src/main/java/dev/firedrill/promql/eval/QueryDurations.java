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
      boolean fixed =
          sq.rangeExpr() != null && sq.rangeExpr().dependsOnQuery()
              || sq.stepExpr() != null && sq.stepExpr().dependsOnQuery()
              || sq.offsetExpr() != null && sq.offsetExpr().dependsOnQuery();
      Expr inner = walk(sq.expr());
      if (!fixed && inner == sq.expr()) {
        return sq;
      }
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
          inner, range, step, offset, sq.at(), sq.rangeExpr(), sq.stepExpr(), sq.offsetExpr());
    }
    // A node whose children are unchanged is kept itself: the API's warnings find their nodes'
    // positions by identity.
    if (e instanceof Expr.Paren p) {
      Expr inner = walk(p.expr());
      return inner == p.expr() ? p : new Expr.Paren(inner);
    }
    if (e instanceof Expr.Unary u) {
      Expr inner = walk(u.expr());
      return inner == u.expr() ? u : new Expr.Unary(u.negate(), inner);
    }
    if (e instanceof Expr.Binary b) {
      Expr lhs = walk(b.lhs());
      Expr rhs = walk(b.rhs());
      return lhs == b.lhs() && rhs == b.rhs()
          ? b
          : new Expr.Binary(b.op(), lhs, rhs, b.returnBool(), b.matching());
    }
    if (e instanceof Expr.Aggregate a) {
      Expr inner = walk(a.expr());
      Expr param = a.param() == null ? null : walk(a.param());
      return inner == a.expr() && param == a.param()
          ? a
          : new Expr.Aggregate(a.op(), inner, param, a.grouping(), a.without());
    }
    if (e instanceof Expr.Call c) {
      List<Expr> args = new ArrayList<>(c.args().size());
      boolean changed = false;
      for (Expr a : c.args()) {
        Expr walked = walk(a);
        changed |= walked != a;
        args.add(walked);
      }
      return changed ? new Expr.Call(c.function(), args) : c;
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
