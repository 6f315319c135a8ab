package dev.firedrill.embedded.rules;

import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.eval.Value;

/**
 * How rules run their expressions: an instant query at the evaluation time whose result is a
 * vector. Failures are thrown (a {@link dev.firedrill.promql.model.PromqlException} for PromQL's);
 * the message becomes the rule's lastError.
 */
@FunctionalInterface
public interface RuleQuery {

  Value.Vector query(Expr expr, long timeMs);
}
