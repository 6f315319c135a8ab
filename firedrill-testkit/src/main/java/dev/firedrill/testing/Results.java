package dev.firedrill.testing;

import dev.firedrill.prometheus.QueryResult;
import java.util.OptionalDouble;
import java.util.function.DoublePredicate;
import java.util.function.Predicate;

/** Small readers and predicates over {@link QueryResult}, for {@link RealPrometheus#awaitQuery}. */
public final class Results {

  private Results() {}

  /** The value of a scalar or of a one-sample vector; empty otherwise. */
  public static OptionalDouble value(QueryResult result) {
    if (result instanceof QueryResult.Scalar scalar) {
      return OptionalDouble.of(scalar.value());
    }
    if (result instanceof QueryResult.Vector vector && vector.samples().size() == 1) {
      return OptionalDouble.of(vector.samples().get(0).value());
    }
    return OptionalDouble.empty();
  }

  /** A scalar or one-sample vector whose value passes {@code test}. */
  public static Predicate<QueryResult> valueMatches(DoublePredicate test) {
    return result -> value(result).stream().anyMatch(test);
  }

  public static Predicate<QueryResult> valueNear(double expected, double tolerance) {
    return valueMatches(v -> Math.abs(v - expected) <= tolerance);
  }

  public static Predicate<QueryResult> emptyVector() {
    return result -> result instanceof QueryResult.Vector vector && vector.samples().isEmpty();
  }

  public static Predicate<QueryResult> nonEmptyVector() {
    return result -> result instanceof QueryResult.Vector vector && !vector.samples().isEmpty();
  }
}
