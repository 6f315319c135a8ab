package dev.firedrill.promql.eval;

import dev.firedrill.promql.ast.BinaryOp;

/** The arithmetic of PromQL's binary operators on two floats, as Go computes it. */
final class Binops {

  private Binops() {}

  /** Scalar op scalar: comparisons give 1 or 0 (the parser demands {@code bool} there). */
  static double scalar(BinaryOp op, double l, double r) {
    return switch (op) {
      case EQL -> l == r ? 1 : 0;
      case NEQ -> l != r ? 1 : 0;
      case GTR -> l > r ? 1 : 0;
      case LSS -> l < r ? 1 : 0;
      case GTE -> l >= r ? 1 : 0;
      case LTE -> l <= r ? 1 : 0;
      default -> arithmetic(op, l, r);
    };
  }

  /** Whether a comparison keeps the pair; every arithmetic operator keeps it. */
  static boolean keeps(BinaryOp op, double l, double r) {
    return switch (op) {
      case EQL -> l == r;
      case NEQ -> l != r;
      case GTR -> l > r;
      case LSS -> l < r;
      case GTE -> l >= r;
      case LTE -> l <= r;
      default -> true;
    };
  }

  /** The value of an element pair: the left value for a comparison. */
  static double element(BinaryOp op, double l, double r) {
    return op.isComparison() ? l : arithmetic(op, l, r);
  }

  static double arithmetic(BinaryOp op, double l, double r) {
    return switch (op) {
      case ADD -> l + r;
      case SUB -> l - r;
      case MUL -> l * r;
      case DIV -> l / r;
      case MOD -> l % r;
      case POW -> pow(l, r);
      case ATAN2 -> Math.atan2(l, r);
      default ->
          throw new IllegalArgumentException("operator " + op.symbol() + " is not arithmetic");
    };
  }

  /** Operators whose result is no longer the metric the name says (arithmetic, not comparison). */
  /** Whether the operator's result drops the metric name: Prometheus 3 drops it for atan2 too. */
  static boolean dropsMetricName(BinaryOp op, Compat compat) {
    return switch (op) {
      case ADD, SUB, MUL, DIV, MOD, POW -> true;
      case ATAN2 -> compat == Compat.PROMETHEUS_3;
      default -> false;
    };
  }

  /** Go's math.Pow, which differs from Java's where 1 or -1 meets NaN or an infinity. */
  static double pow(double x, double y) {
    if (y == 0 || x == 1) {
      return 1;
    }
    if (x == -1 && Double.isInfinite(y)) {
      return 1;
    }
    return Math.pow(x, y);
  }
}
