package dev.firedrill.promql.ast;

import java.util.OptionalDouble;

/**
 * A Prometheus 3 duration expression, where a range, a subquery step or an offset goes: {@code 5m},
 * {@code 300} (seconds), {@code 5m * 2}, {@code (1h + 5m)}, {@code step()}, {@code range()}, {@code
 * min(5m, 2 * step())}. Values are seconds, as Prometheus computes them. Only the Prometheus 3
 * syntax of the parser produces these; a v2.42 tree never holds one.
 */
public sealed interface DurationExpr {

  /** The value in seconds, given the query's step and range (both 0 for an instant query). */
  double seconds(double stepSeconds, double rangeSeconds);

  /** The value, when it needs neither {@code step()} nor {@code range()}. */
  default OptionalDouble constantSeconds() {
    return dependsOnQuery() ? OptionalDouble.empty() : OptionalDouble.of(seconds(0, 0));
  }

  boolean dependsOnQuery();

  /** PromQL text for messages: literals as written, one space around operators. */
  String text();

  /** {@code 5m} or {@code 300}, as written; {@code seconds} is its value. */
  record Literal(String written, double seconds) implements DurationExpr {
    public double seconds(double stepSeconds, double rangeSeconds) {
      return seconds;
    }

    public boolean dependsOnQuery() {
      return false;
    }

    public String text() {
      return written;
    }
  }

  /** {@code -d}. */
  record Negated(DurationExpr expr) implements DurationExpr {
    public double seconds(double stepSeconds, double rangeSeconds) {
      return -expr.seconds(stepSeconds, rangeSeconds);
    }

    public boolean dependsOnQuery() {
      return expr.dependsOnQuery();
    }

    public String text() {
      return "-" + expr.text();
    }
  }

  /** {@code (d)}: kept so the text reads as written. */
  record Parenthesized(DurationExpr expr) implements DurationExpr {
    public double seconds(double stepSeconds, double rangeSeconds) {
      return expr.seconds(stepSeconds, rangeSeconds);
    }

    public boolean dependsOnQuery() {
      return expr.dependsOnQuery();
    }

    public String text() {
      return "(" + expr.text() + ")";
    }
  }

  /** {@code lhs op rhs} with {@code + - * / % ^}. */
  record Arithmetic(BinaryOp op, DurationExpr lhs, DurationExpr rhs) implements DurationExpr {
    public double seconds(double stepSeconds, double rangeSeconds) {
      double l = lhs.seconds(stepSeconds, rangeSeconds);
      double r = rhs.seconds(stepSeconds, rangeSeconds);
      return switch (op) {
        case ADD -> l + r;
        case SUB -> l - r;
        case MUL -> l * r;
        case DIV -> l / r;
        case MOD -> l % r;
        case POW -> Math.pow(l, r);
        default -> throw new IllegalStateException(op + " is not a duration operator");
      };
    }

    public boolean dependsOnQuery() {
      return lhs.dependsOnQuery() || rhs.dependsOnQuery();
    }

    public String text() {
      return lhs.text() + " " + op.symbol() + " " + rhs.text();
    }
  }

  /** {@code min(a, b)} or {@code max(a, b)} (Prometheus 3.6). */
  record Extremum(boolean max, DurationExpr lhs, DurationExpr rhs) implements DurationExpr {
    public double seconds(double stepSeconds, double rangeSeconds) {
      double l = lhs.seconds(stepSeconds, rangeSeconds);
      double r = rhs.seconds(stepSeconds, rangeSeconds);
      return max ? Math.max(l, r) : Math.min(l, r);
    }

    public boolean dependsOnQuery() {
      return lhs.dependsOnQuery() || rhs.dependsOnQuery();
    }

    public String text() {
      return (max ? "max(" : "min(") + lhs.text() + ", " + rhs.text() + ")";
    }
  }

  /** {@code step()} (Prometheus 3.6) or {@code range()} (3.10): the query's step or range. */
  record QueryParameter(boolean range) implements DurationExpr {
    public double seconds(double stepSeconds, double rangeSeconds) {
      return range ? rangeSeconds : stepSeconds;
    }

    public boolean dependsOnQuery() {
      return true;
    }

    public String text() {
      return range ? "range()" : "step()";
    }
  }
}
