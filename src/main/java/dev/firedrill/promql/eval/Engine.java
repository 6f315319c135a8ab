package dev.firedrill.promql.eval;

import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.promql.model.SeriesSource;
import java.time.Duration;

/** Evaluates PromQL against a {@link SeriesSource} with Prometheus's semantics. */
public final class Engine {

  /** Prometheus's defaults: a 5 m lookback, a 2 min query timeout. */
  public record Options(Duration lookbackDelta, Duration timeout) {
    public static Options defaults() {
      return new Options(Duration.ofMinutes(5), Duration.ofMinutes(2));
    }
  }

  private final SeriesSource source;
  private final Options options;

  public Engine(SeriesSource source, Options options) {
    this.source = source;
    this.options = options;
  }

  /** An instant query: a Scalar, Text, Vector or (for a range selector) Matrix. */
  public Value instant(Expr expr, long timeMs) {
    throw new UnsupportedOperationException("PromQL evaluator not written yet");
  }

  /**
   * A range query: a Matrix (a scalar expression gives one series without labels). A string or
   * range-vector expression is refused as Prometheus refuses it.
   */
  public Value.Matrix range(Expr expr, long startMs, long endMs, long stepMs) {
    throw new UnsupportedOperationException("PromQL evaluator not written yet");
  }

  /** @throws PromqlException as {@link dev.firedrill.promql.parse.PromqlParser#parse} does */
  public Value instant(String query, long timeMs) {
    return instant(dev.firedrill.promql.parse.PromqlParser.parse(query), timeMs);
  }

  public Value.Matrix range(String query, long startMs, long endMs, long stepMs) {
    return range(dev.firedrill.promql.parse.PromqlParser.parse(query), startMs, endMs, stepMs);
  }
}
