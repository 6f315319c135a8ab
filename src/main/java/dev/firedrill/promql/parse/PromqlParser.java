package dev.firedrill.promql.parse;

import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.model.PromqlException;

/** Parses PromQL text into a type-checked {@link Expr}. */
public final class PromqlParser {

  private PromqlParser() {}

  /**
   * @throws PromqlException of type BAD_DATA with Prometheus's wording and position, e.g.
   *     {@code 1:14: parse error: unexpected right bracket ')'}
   */
  public static Expr parse(String query) {
    throw new UnsupportedOperationException("PromQL parser not written yet");
  }
}
