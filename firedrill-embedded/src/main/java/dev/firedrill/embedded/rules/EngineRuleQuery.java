package dev.firedrill.embedded.rules;

import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.eval.Engine;
import dev.firedrill.promql.eval.Value;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import java.util.List;

/**
 * Rules' queries on the PromQL engine: a scalar becomes one sample without labels, as Prometheus's
 * rule query does.
 */
public final class EngineRuleQuery implements RuleQuery {

  private final Engine engine;

  public EngineRuleQuery(Engine engine) {
    this.engine = engine;
  }

  @Override
  public Value.Vector query(Expr expr, long timeMs) {
    Value value = engine.instant(expr, timeMs);
    if (value instanceof Value.Vector vector) {
      return vector;
    }
    if (value instanceof Value.Scalar scalar) {
      return new Value.Vector(
          List.of(new Value.Sample(LabelSet.EMPTY, scalar.timestampMs(), scalar.value())));
    }
    throw new PromqlException(
        PromqlException.ErrorType.EXECUTION, "rule result is not a vector or scalar");
  }
}
