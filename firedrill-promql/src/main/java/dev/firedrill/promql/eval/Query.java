package dev.firedrill.promql.eval;

import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.promql.model.SeriesSource;
import java.util.Set;

/**
 * What every evaluator of one query shares: where samples come from, the lookback, the query's own
 * start, end and step (0 for an instant query) (which {@code @ start()} and {@code @ end()} name,
 * even inside subqueries), the step of a subquery that gives none, the feature flags on, the
 * deadline, and where its warnings and infos go.
 */
record Query(
    SeriesSource source,
    long lookbackMs,
    long startMs,
    long endMs,
    long stepMs,
    long subqueryStepMs,
    Compat compat,
    Set<Feature> features,
    long deadlineNanos,
    Annotations annotations) {

  boolean has(Feature feature) {
    return features.contains(feature);
  }

  void checkDeadline() {
    if (System.nanoTime() - deadlineNanos > 0) {
      throw new PromqlException(
          PromqlException.ErrorType.TIMEOUT, "query timed out in expression evaluation");
    }
  }
}
