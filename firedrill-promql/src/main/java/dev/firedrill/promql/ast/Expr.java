package dev.firedrill.promql.ast;

import dev.firedrill.promql.model.LabelMatcher;
import java.util.List;
import java.util.Objects;

/**
 * A parsed PromQL expression, Prometheus's {@code parser.Expr}. Durations and timestamps are
 * milliseconds. The parser has type-checked the tree: every node's {@link #type()} is final.
 */
public sealed interface Expr {

  ValueType type();

  record NumberLiteral(double value) implements Expr {
    public ValueType type() {
      return ValueType.SCALAR;
    }
  }

  record StringLiteral(String value) implements Expr {
    public ValueType type() {
      return ValueType.STRING;
    }
  }

  /**
   * {@code name{matchers} offset O @ T}. The matchers include the {@code __name__} matcher of a
   * written name; {@code name} is that name or null.
   */
  record VectorSelector(
      String name,
      List<LabelMatcher> matchers,
      long offsetMs,
      At at,
      DurationExpr offsetExpr,
      RangeMode rangeMode)
      implements Expr {
    public VectorSelector {
      matchers = List.copyOf(matchers);
      Objects.requireNonNull(rangeMode, "rangeMode");
    }

    /** As Prometheus v2.42 writes one: a literal offset, no range mode. */
    public VectorSelector(String name, List<LabelMatcher> matchers, long offsetMs, At at) {
      this(name, matchers, offsetMs, at, null, RangeMode.PLAIN);
    }

    public VectorSelector withOffset(long ms, DurationExpr written) {
      return new VectorSelector(name, matchers, ms, at, written, rangeMode);
    }

    public VectorSelector withAt(At newAt) {
      return new VectorSelector(name, matchers, offsetMs, newAt, offsetExpr, rangeMode);
    }

    public VectorSelector withRangeMode(RangeMode mode) {
      return new VectorSelector(name, matchers, offsetMs, at, offsetExpr, mode);
    }

    public ValueType type() {
      return ValueType.VECTOR;
    }
  }

  /**
   * Prometheus 3.7's experimental {@code anchored} and {@code smoothed} modifiers of a selector
   * ({@code rate(x[5m] anchored)}); {@code PLAIN} without one.
   */
  enum RangeMode {
    PLAIN,
    ANCHORED,
    SMOOTHED
  }

  /**
   * {@code selector[range]}; offset and {@code @} live on the selector. {@code rangeExpr} is the
   * range as Prometheus 3 syntax wrote it (null from the v2.42 syntax); {@code rangeMs} its value,
   * 0 when it needs the query's step or range.
   */
  record MatrixSelector(VectorSelector selector, long rangeMs, DurationExpr rangeExpr)
      implements Expr {
    public MatrixSelector(VectorSelector selector, long rangeMs) {
      this(selector, rangeMs, null);
    }

    public ValueType type() {
      return ValueType.MATRIX;
    }
  }

  /**
   * {@code expr[range:step] offset O @ T}; {@code stepMs} 0 means the default evaluation interval.
   * The {@code *Expr} components are the Prometheus 3 syntax's duration expressions (null from the
   * v2.42 syntax, and {@code stepExpr} null without a step).
   */
  record Subquery(
      Expr expr,
      long rangeMs,
      long stepMs,
      long offsetMs,
      At at,
      DurationExpr rangeExpr,
      DurationExpr stepExpr,
      DurationExpr offsetExpr)
      implements Expr {
    public Subquery(Expr expr, long rangeMs, long stepMs, long offsetMs, At at) {
      this(expr, rangeMs, stepMs, offsetMs, at, null, null, null);
    }

    public Subquery with(Expr inner, long newOffsetMs, DurationExpr newOffsetExpr, At newAt) {
      return new Subquery(
          inner, rangeMs, stepMs, newOffsetMs, newAt, rangeExpr, stepExpr, newOffsetExpr);
    }

    public ValueType type() {
      return ValueType.MATRIX;
    }
  }

  record Paren(Expr expr) implements Expr {
    public ValueType type() {
      return expr.type();
    }
  }

  /** {@code -expr} or {@code +expr}. */
  record Unary(boolean negate, Expr expr) implements Expr {
    public ValueType type() {
      return expr.type();
    }
  }

  /**
   * {@code lhs op rhs}. {@code matching} is null unless both sides are vectors; the parser sets
   * MANY_TO_MANY for set operators.
   */
  record Binary(BinaryOp op, Expr lhs, Expr rhs, boolean returnBool, VectorMatching matching)
      implements Expr {
    public ValueType type() {
      return lhs.type() == ValueType.SCALAR && rhs.type() == ValueType.SCALAR
          ? ValueType.SCALAR
          : ValueType.VECTOR;
    }
  }

  /** {@code op by|without (grouping) (param, expr)}; {@code param} is null for ops without one. */
  record Aggregate(AggregateOp op, Expr expr, Expr param, List<String> grouping, boolean without)
      implements Expr {
    public Aggregate {
      grouping = List.copyOf(grouping);
    }

    public ValueType type() {
      return ValueType.VECTOR;
    }
  }

  record Call(Function function, List<Expr> args) implements Expr {
    public Call {
      Objects.requireNonNull(function, "function");
      args = List.copyOf(args);
    }

    public ValueType type() {
      return function.returnType();
    }
  }

  /** {@code @ 1609746000}, {@code @ start()} or {@code @ end()}. */
  record At(Kind kind, long timestampMs) {
    public enum Kind {
      TIMESTAMP,
      START,
      END
    }
  }

  /**
   * Vector matching of a binary operation: {@code on(labels)} when {@code on}, else {@code
   * ignoring(labels)}; {@code include} are the {@code group_left/right(...)} labels. {@code
   * fillLeft} and {@code fillRight} are Prometheus 3.10's {@code fill_left(v)} and {@code
   * fill_right(v)} ({@code fill(v)} sets both): the value a missing side takes; null without.
   */
  record VectorMatching(
      Cardinality cardinality,
      List<String> labels,
      boolean on,
      List<String> include,
      Double fillLeft,
      Double fillRight) {
    public VectorMatching {
      labels = List.copyOf(labels);
      include = List.copyOf(include);
    }

    public VectorMatching(
        Cardinality cardinality, List<String> labels, boolean on, List<String> include) {
      this(cardinality, labels, on, include, null, null);
    }

    public VectorMatching withCardinality(Cardinality c) {
      return new VectorMatching(c, labels, on, include, fillLeft, fillRight);
    }

    public enum Cardinality {
      ONE_TO_ONE,
      MANY_TO_ONE,
      ONE_TO_MANY,
      MANY_TO_MANY
    }
  }
}
