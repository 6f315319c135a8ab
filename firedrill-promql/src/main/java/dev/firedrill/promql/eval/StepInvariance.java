package dev.firedrill.promql.eval;

import dev.firedrill.promql.ast.Expr;
import java.util.Set;

/**
 * Prometheus's step invariance: an expression whose every selector and subquery has an {@code @}
 * gives the same result at each step, so a range query evaluates it once and repeats it.
 */
final class StepInvariance {

  /** Functions that read the evaluation time, or a sample's time, even of invariant arguments. */
  private static final Set<String> TIME_DEPENDENT =
      Set.of(
          "days_in_month",
          "day_of_month",
          "day_of_week",
          "day_of_year",
          "hour",
          "minute",
          "month",
          "year",
          "predict_linear",
          "time",
          "timestamp");

  private StepInvariance() {}

  /**
   * As Prometheus's preprocessor decides it; an aggregation's parameter does not count, as there.
   */
  static boolean of(Expr e) {
    if (e instanceof Expr.Paren p) {
      return of(p.expr());
    }
    if (e instanceof Expr.Unary u) {
      return of(u.expr());
    }
    if (e instanceof Expr.NumberLiteral || e instanceof Expr.StringLiteral) {
      return true;
    }
    if (e instanceof Expr.VectorSelector vs) {
      return vs.at() != null;
    }
    if (e instanceof Expr.MatrixSelector ms) {
      return ms.selector().at() != null;
    }
    if (e instanceof Expr.Subquery sq) {
      return sq.at() != null;
    }
    if (e instanceof Expr.Aggregate a) {
      return of(a.expr());
    }
    if (e instanceof Expr.Binary b) {
      return of(b.lhs()) && of(b.rhs());
    }
    if (e instanceof Expr.Call c) {
      return !TIME_DEPENDENT.contains(c.function().name())
          && c.args().stream().allMatch(StepInvariance::of);
    }
    return false;
  }
}
