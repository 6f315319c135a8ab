package dev.firedrill.embedded.api;

import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.eval.Annotations;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.eval.Engine;
import dev.firedrill.promql.eval.Value;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.promql.model.SeriesSource;
import dev.firedrill.promql.parse.PromqlParser;
import java.time.Duration;
import java.util.Map;

/**
 * What the API asks of PromQL. Parsing is apart from evaluating because Prometheus words their
 * errors differently ({@code invalid parameter "query": ...} for a parse error of an instant
 * query).
 */
public interface QueryEngine {

  /**
   * @throws PromqlException BAD_DATA for text that is not PromQL
   */
  Expr parse(String query);

  /**
   * As {@link #parse}, with where each node stands, so the query's warnings and infos can name it;
   * an engine that does not know gives no positions.
   */
  default PromqlParser.Located parseLocated(String query) {
    return new PromqlParser.Located(query, parse(query), Map.of());
  }

  /**
   * @param timeout the request's {@code timeout}, at most the engine's own
   * @param annotations where the query's warnings and infos go
   */
  Value instant(Expr expr, long timeMs, Duration timeout, Annotations annotations);

  Value.Matrix range(
      Expr expr, long startMs, long endMs, long stepMs, Duration timeout, Annotations annotations);

  /** The Prometheus major version the API answers as (its parameters and fields). */
  default Compat compat() {
    return Compat.defaultMode();
  }

  /**
   * The PromQL parser (in the grammar of the options' {@link dev.firedrill.promql.eval.Compat}
   * mode) and {@link Engine} over {@code source}; a request's timeout shortens the engine's.
   */
  static QueryEngine over(SeriesSource source, Engine.Options options) {
    return new QueryEngine() {
      @Override
      public Expr parse(String query) {
        return PromqlParser.parse(query, options.compat().syntax());
      }

      @Override
      public PromqlParser.Located parseLocated(String query) {
        return PromqlParser.parseLocated(query, options.compat().syntax());
      }

      @Override
      public Compat compat() {
        return options.compat();
      }

      @Override
      public Value instant(Expr expr, long timeMs, Duration timeout, Annotations annotations) {
        return engine(timeout).instant(expr, timeMs, annotations);
      }

      @Override
      public Value.Matrix range(
          Expr expr,
          long startMs,
          long endMs,
          long stepMs,
          Duration timeout,
          Annotations annotations) {
        return engine(timeout).range(expr, startMs, endMs, stepMs, annotations);
      }

      private Engine engine(Duration timeout) {
        Duration shorter = timeout.compareTo(options.timeout()) < 0 ? timeout : options.timeout();
        return new Engine(source, options.withTimeout(shorter));
      }
    };
  }
}
