package dev.firedrill.promql.eval;

import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.ast.ValueType;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.promql.model.SeriesSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/** Evaluates PromQL against a {@link SeriesSource} with Prometheus's semantics. */
public final class Engine {

  /**
   * Prometheus's defaults: a 5 m lookback, a 2 min query timeout, a subquery without a step
   * stepping by the global evaluation interval, 1 m, and the semantics of {@link
   * Compat#defaultMode()}.
   */
  public record Options(
      Duration lookbackDelta,
      Duration timeout,
      Duration defaultSubqueryStep,
      Compat compat,
      Set<Feature> features) {
    public Options {
      java.util.Objects.requireNonNull(compat, "compat");
      features = Set.copyOf(features);
    }

    /** Without feature flags. */
    public Options(
        Duration lookbackDelta, Duration timeout, Duration defaultSubqueryStep, Compat compat) {
      this(lookbackDelta, timeout, defaultSubqueryStep, compat, Set.of());
    }

    public Options(Duration lookbackDelta, Duration timeout, Duration defaultSubqueryStep) {
      this(lookbackDelta, timeout, defaultSubqueryStep, Compat.defaultMode());
    }

    public Options(Duration lookbackDelta, Duration timeout) {
      this(lookbackDelta, timeout, Duration.ofMinutes(1));
    }

    public static Options defaults() {
      return new Options(Duration.ofMinutes(5), Duration.ofMinutes(2));
    }

    /** The defaults, with subqueries without a step stepping by a server's evaluation interval. */
    public static Options evaluatingEvery(Duration evaluationInterval) {
      return new Options(Duration.ofMinutes(5), Duration.ofMinutes(2), evaluationInterval);
    }

    public Options withTimeout(Duration timeout) {
      return new Options(lookbackDelta, timeout, defaultSubqueryStep, compat, features);
    }

    /** These options, answering as {@code mode}. */
    public Options withCompat(Compat mode) {
      return new Options(lookbackDelta, timeout, defaultSubqueryStep, mode, features);
    }

    /**
     * These options with {@code enabled} the feature flags (Prometheus 3's; mode 2 ignores them).
     */
    public Options withFeatures(Set<Feature> enabled) {
      return new Options(lookbackDelta, timeout, defaultSubqueryStep, compat, enabled);
    }
  }

  private final SeriesSource source;
  private final Options options;

  public Engine(SeriesSource source, Options options) {
    this.source = source;
    this.options = options;
  }

  /** An instant query: a Scalar, Text, Vector or (for a range selector) Matrix. */
  public Value instant(Expr written, long timeMs) {
    return instant(written, timeMs, new Annotations());
  }

  /** As above, the query's warnings and infos added to {@code annotations}. */
  public Value instant(Expr written, long timeMs, Annotations annotations) {
    Expr expr = QueryDurations.resolve(written, 0, 0);
    Expr e = Evaluator.unwrap(expr);
    if (e instanceof Expr.StringLiteral s) {
      return new Value.Text(timeMs, s.value());
    }
    List<Points> result =
        DelayedName.cleanUp(
            new Evaluator(query(timeMs, timeMs, 0, annotations), timeMs, timeMs, 1).eval(expr),
            true);
    return switch (expr.type()) {
      case SCALAR -> new Value.Scalar(timeMs, result.get(0).v[0]);
      case VECTOR -> {
        List<Value.Sample> samples = new ArrayList<>(result.size());
        for (Points p : result) {
          samples.add(new Value.Sample(p.labels, timeMs, p.v[0]));
        }
        yield new Value.Vector(samples);
      }
      case MATRIX -> matrix(result);
      case STRING ->
          throw new IllegalStateException("string expression " + expr + " evaluated as a series");
    };
  }

  /**
   * A range query: a Matrix (a scalar expression gives one series without labels). A string or
   * range-vector expression is refused as Prometheus refuses it.
   */
  public Value.Matrix range(Expr written, long startMs, long endMs, long stepMs) {
    return range(written, startMs, endMs, stepMs, new Annotations());
  }

  /** As above, the query's warnings and infos added to {@code annotations}. */
  public Value.Matrix range(
      Expr written, long startMs, long endMs, long stepMs, Annotations annotations) {
    Expr expr = written;
    if (expr.type() != ValueType.VECTOR && expr.type() != ValueType.SCALAR) {
      throw new PromqlException(
          PromqlException.ErrorType.BAD_DATA,
          "invalid expression type \""
              + (expr.type() == ValueType.MATRIX ? "range vector" : expr.type().promName())
              + "\" for range query, must be Scalar or instant Vector");
    }
    if (stepMs <= 0) {
      throw new PromqlException(
          PromqlException.ErrorType.BAD_DATA,
          "zero or negative query resolution step widths are not accepted. Try a positive integer");
    }
    if (endMs < startMs) {
      throw new PromqlException(
          PromqlException.ErrorType.BAD_DATA, "end timestamp must not be before start time");
    }
    expr = QueryDurations.resolve(written, stepMs, endMs - startMs);
    return matrix(
        DelayedName.cleanUp(
            new Evaluator(query(startMs, endMs, stepMs, annotations), startMs, endMs, stepMs)
                .eval(expr),
            false));
  }

  /**
   * @throws PromqlException as {@link dev.firedrill.promql.parse.PromqlParser#parse} does
   */
  public Value instant(String query, long timeMs) {
    return instant(parse(query), timeMs);
  }

  public Value.Matrix range(String query, long startMs, long endMs, long stepMs) {
    return range(parse(query), startMs, endMs, stepMs);
  }

  /** The query read in the grammar of this engine's {@link Compat} mode. */
  public Expr parse(String query) {
    return dev.firedrill.promql.parse.PromqlParser.parse(query, options.compat().syntax());
  }

  private Query query(long startMs, long endMs, long stepMs, Annotations annotations) {
    return new Query(
        source,
        options.lookbackDelta().toMillis(),
        startMs,
        endMs,
        stepMs,
        options.defaultSubqueryStep().toMillis(),
        options.compat(),
        options.compat() == Compat.PROMETHEUS_3 ? options.features() : Set.of(),
        System.nanoTime() + options.timeout().toNanos(),
        annotations);
  }

  private static Value.Matrix matrix(List<Points> result) {
    List<Value.Series> series = new ArrayList<>(result.size());
    for (Points p : result) {
      series.add(p.toSeries());
    }
    series.sort(Comparator.comparing(Value.Series::labels));
    return new Value.Matrix(series);
  }
}
