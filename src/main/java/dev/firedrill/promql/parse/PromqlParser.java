package dev.firedrill.promql.parse;

import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.model.PromqlException;

/** Parses PromQL text into a type-checked {@link Expr}, as Prometheus v2.42 parses it. */
public final class PromqlParser {

  private PromqlParser() {}

  /**
   * @throws PromqlException of type BAD_DATA with Prometheus's wording and position, e.g.
   *     {@code 1:14: parse error: unexpected right parenthesis ')'}
   */
  public static Expr parse(String query) {
    return new Parser(query).parse();
  }
}
