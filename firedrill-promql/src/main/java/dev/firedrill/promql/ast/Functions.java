package dev.firedrill.promql.ast;

import static dev.firedrill.promql.ast.ValueType.MATRIX;
import static dev.firedrill.promql.ast.ValueType.SCALAR;
import static dev.firedrill.promql.ast.ValueType.STRING;
import static dev.firedrill.promql.ast.ValueType.VECTOR;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Prometheus v2.42's function signatures ({@code promql/parser/functions.go}), less the three that
 * read native histograms only ({@code histogram_count}, {@code histogram_sum}, {@code
 * histogram_fraction}): the parser treats those as unknown functions.
 */
public final class Functions {

  private static final Map<String, Function> BY_NAME =
      Stream.of(
              fn("abs", VECTOR, 0, VECTOR),
              fn("absent", VECTOR, 0, VECTOR),
              fn("absent_over_time", VECTOR, 0, MATRIX),
              fn("acos", VECTOR, 0, VECTOR),
              fn("acosh", VECTOR, 0, VECTOR),
              fn("asin", VECTOR, 0, VECTOR),
              fn("asinh", VECTOR, 0, VECTOR),
              fn("atan", VECTOR, 0, VECTOR),
              fn("atanh", VECTOR, 0, VECTOR),
              fn("avg_over_time", VECTOR, 0, MATRIX),
              fn("ceil", VECTOR, 0, VECTOR),
              fn("changes", VECTOR, 0, MATRIX),
              fn("clamp", VECTOR, 0, VECTOR, SCALAR, SCALAR),
              fn("clamp_max", VECTOR, 0, VECTOR, SCALAR),
              fn("clamp_min", VECTOR, 0, VECTOR, SCALAR),
              fn("cos", VECTOR, 0, VECTOR),
              fn("cosh", VECTOR, 0, VECTOR),
              fn("count_over_time", VECTOR, 0, MATRIX),
              fn("day_of_month", VECTOR, 1, VECTOR),
              fn("day_of_week", VECTOR, 1, VECTOR),
              fn("day_of_year", VECTOR, 1, VECTOR),
              fn("days_in_month", VECTOR, 1, VECTOR),
              fn("deg", VECTOR, 0, VECTOR),
              fn("delta", VECTOR, 0, MATRIX),
              fn("deriv", VECTOR, 0, MATRIX),
              fn("exp", VECTOR, 0, VECTOR),
              fn("floor", VECTOR, 0, VECTOR),
              fn("histogram_quantile", VECTOR, 0, SCALAR, VECTOR),
              fn("holt_winters", VECTOR, 0, MATRIX, SCALAR, SCALAR),
              fn("hour", VECTOR, 1, VECTOR),
              fn("idelta", VECTOR, 0, MATRIX),
              fn("increase", VECTOR, 0, MATRIX),
              fn("irate", VECTOR, 0, MATRIX),
              fn("label_join", VECTOR, -1, VECTOR, STRING, STRING, STRING),
              fn("label_replace", VECTOR, 0, VECTOR, STRING, STRING, STRING, STRING),
              fn("last_over_time", VECTOR, 0, MATRIX),
              fn("ln", VECTOR, 0, VECTOR),
              fn("log10", VECTOR, 0, VECTOR),
              fn("log2", VECTOR, 0, VECTOR),
              fn("max_over_time", VECTOR, 0, MATRIX),
              fn("min_over_time", VECTOR, 0, MATRIX),
              fn("minute", VECTOR, 1, VECTOR),
              fn("month", VECTOR, 1, VECTOR),
              fn("pi", SCALAR, 0),
              fn("predict_linear", VECTOR, 0, MATRIX, SCALAR),
              fn("present_over_time", VECTOR, 0, MATRIX),
              fn("quantile_over_time", VECTOR, 0, SCALAR, MATRIX),
              fn("rad", VECTOR, 0, VECTOR),
              fn("rate", VECTOR, 0, MATRIX),
              fn("resets", VECTOR, 0, MATRIX),
              fn("round", VECTOR, 1, VECTOR, SCALAR),
              fn("scalar", SCALAR, 0, VECTOR),
              fn("sgn", VECTOR, 0, VECTOR),
              fn("sin", VECTOR, 0, VECTOR),
              fn("sinh", VECTOR, 0, VECTOR),
              fn("sort", VECTOR, 0, VECTOR),
              fn("sort_desc", VECTOR, 0, VECTOR),
              fn("sqrt", VECTOR, 0, VECTOR),
              fn("stddev_over_time", VECTOR, 0, MATRIX),
              fn("stdvar_over_time", VECTOR, 0, MATRIX),
              fn("sum_over_time", VECTOR, 0, MATRIX),
              fn("tan", VECTOR, 0, VECTOR),
              fn("tanh", VECTOR, 0, VECTOR),
              fn("time", SCALAR, 0),
              fn("timestamp", VECTOR, 0, VECTOR),
              fn("vector", VECTOR, 0, SCALAR),
              fn("year", VECTOR, 1, VECTOR))
          .collect(Collectors.toUnmodifiableMap(Function::name, f -> f));

  /**
   * Functions Prometheus 3.x added (3.5, the 3.7 {@code first_over_time} family, and the query's
   * {@code step() range() start() end()} and {@code min_of max_of} of scalars), known to the
   * Prometheus 3 syntax only. {@code holt_winters} stays known there, so the linter can name it
   * rather than refuse the file.
   */
  private static final Map<String, Function> PROMETHEUS_3 =
      Stream.of(
              fn("double_exponential_smoothing", VECTOR, 0, MATRIX, SCALAR, SCALAR),
              fn("end", SCALAR, 0),
              fn("max_of", SCALAR, 0, SCALAR, SCALAR),
              fn("min_of", SCALAR, 0, SCALAR, SCALAR),
              fn("range", SCALAR, 0),
              fn("start", SCALAR, 0),
              fn("step", SCALAR, 0),
              fn("first_over_time", VECTOR, 0, MATRIX),
              fn("histogram_avg", VECTOR, 0, VECTOR),
              fn("histogram_count", VECTOR, 0, VECTOR),
              fn("histogram_fraction", VECTOR, 0, SCALAR, SCALAR, VECTOR),
              fn("histogram_stddev", VECTOR, 0, VECTOR),
              fn("histogram_stdvar", VECTOR, 0, VECTOR),
              fn("histogram_sum", VECTOR, 0, VECTOR),
              fn("info", VECTOR, 1, VECTOR, VECTOR),
              fn("mad_over_time", VECTOR, 0, MATRIX),
              fn("sort_by_label", VECTOR, -1, VECTOR, STRING),
              fn("start_timestamp", VECTOR, 0, VECTOR),
              fn("sort_by_label_desc", VECTOR, -1, VECTOR, STRING),
              fn("ts_of_first_over_time", VECTOR, 0, MATRIX),
              fn("ts_of_last_over_time", VECTOR, 0, MATRIX),
              fn("ts_of_max_over_time", VECTOR, 0, MATRIX),
              fn("ts_of_min_over_time", VECTOR, 0, MATRIX))
          .collect(Collectors.toUnmodifiableMap(Function::name, f -> f));

  private Functions() {}

  /** A function of Prometheus v2.42. */
  public static Optional<Function> byName(String name) {
    return Optional.ofNullable(BY_NAME.get(name));
  }

  /** A function of Prometheus v2.42 or, when {@code prometheus3}, of 3.x. */
  public static Optional<Function> byName(String name, boolean prometheus3) {
    Function function = BY_NAME.get(name);
    return Optional.ofNullable(function == null && prometheus3 ? PROMETHEUS_3.get(name) : function);
  }

  private static Function fn(
      String name, ValueType returnType, int variadic, ValueType... argTypes) {
    return new Function(name, Arrays.asList(argTypes), variadic, returnType);
  }
}
