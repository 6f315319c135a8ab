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
  record VectorSelector(String name, List<LabelMatcher> matchers, long offsetMs, At at) implements Expr {
    public VectorSelector {
      matchers = List.copyOf(matchers);
    }

    public ValueType type() {
      return ValueType.VECTOR;
    }
  }

  /** {@code selector[range]}; offset and {@code @} live on the selector. */
  record MatrixSelector(VectorSelector selector, long rangeMs) implements Expr {
    public ValueType type() {
      return ValueType.MATRIX;
    }
  }

  /** {@code expr[range:step] offset O @ T}; {@code stepMs} 0 means the default evaluation interval. */
  record Subquery(Expr expr, long rangeMs, long stepMs, long offsetMs, At at) implements Expr {
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
  record Binary(BinaryOp op, Expr lhs, Expr rhs, boolean returnBool, VectorMatching matching) implements Expr {
    public ValueType type() {
      return lhs.type() == ValueType.SCALAR && rhs.type() == ValueType.SCALAR ? ValueType.SCALAR : ValueType.VECTOR;
    }
  }

  /** {@code op by|without (grouping) (param, expr)}; {@code param} is null for ops without one. */
  record Aggregate(AggregateOp op, Expr expr, Expr param, List<String> grouping, boolean without) implements Expr {
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
    public enum Kind { TIMESTAMP, START, END }
  }

  /**
   * Vector matching of a binary operation: {@code on(labels)} when {@code on}, else
   * {@code ignoring(labels)}; {@code include} are the {@code group_left/right(...)} labels.
   */
  record VectorMatching(Cardinality cardinality, List<String> labels, boolean on, List<String> include) {
    public VectorMatching {
      labels = List.copyOf(labels);
      include = List.copyOf(include);
    }

    public enum Cardinality { ONE_TO_ONE, MANY_TO_ONE, ONE_TO_MANY, MANY_TO_MANY }
  }
}
