package dev.firedrill.embedded.api;

import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.eval.Annotations;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.eval.Value;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.PromqlException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Canned PromQL for API tests: queries the test declares parse, each evaluates to what the test
 * gave.
 */
final class StubEngine implements QueryEngine {

  /** One evaluation the API asked for. */
  record Call(String kind, Expr expr, long startMs, long endMs, long stepMs, Duration timeout) {}

  private final Map<String, Expr> parsed = new HashMap<>();
  private final Map<Expr, Supplier<Value>> answers = new HashMap<>();
  final List<Call> calls = new ArrayList<>();
  private final Compat compat;

  StubEngine() {
    this(Compat.defaultMode());
  }

  StubEngine(Compat compat) {
    this.compat = compat;
  }

  @Override
  public Compat compat() {
    return compat;
  }

  static Expr.VectorSelector selector(String name, LabelMatcher... more) {
    List<LabelMatcher> matchers = new ArrayList<>();
    if (name != null) {
      matchers.add(LabelMatcher.of(LabelMatcher.Type.EQUAL, "__name__", name));
    }
    matchers.addAll(List.of(more));
    return new Expr.VectorSelector(name, matchers, 0, null);
  }

  StubEngine parses(String query, Expr expr) {
    parsed.put(query, expr);
    return this;
  }

  StubEngine answers(String query, Expr expr, Value value) {
    return answers(query, expr, () -> value);
  }

  StubEngine answers(String query, Expr expr, Supplier<Value> value) {
    parsed.put(query, expr);
    answers.put(expr, value);
    return this;
  }

  @Override
  public Expr parse(String query) {
    Expr expr = parsed.get(query);
    if (expr == null) {
      throw new PromqlException(
          PromqlException.ErrorType.BAD_DATA, "1:6: parse error: unclosed left parenthesis");
    }
    return expr;
  }

  @Override
  public Value instant(Expr expr, long timeMs, Duration timeout, Annotations annotations) {
    calls.add(new Call("instant", expr, timeMs, timeMs, 0, timeout));
    return answers.get(expr).get();
  }

  @Override
  public Value.Matrix range(
      Expr expr, long startMs, long endMs, long stepMs, Duration timeout, Annotations annotations) {
    calls.add(new Call("range", expr, startMs, endMs, stepMs, timeout));
    return (Value.Matrix) answers.get(expr).get();
  }
}
