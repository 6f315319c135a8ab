package dev.firedrill.embedded.rules;

import dev.firedrill.embedded.notify.OutgoingAlert;
import dev.firedrill.embedded.storage.MemoryStorage;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.eval.Value;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.StoredSeries;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * Rules from YAML on a virtual clock: each rule's expression answers what the test says (by rule
 * name), samples go to a real {@link MemoryStorage}, sent alerts are collected.
 */
final class RuleHarness {

  final MemoryStorage storage = new MemoryStorage();
  final List<List<OutgoingAlert>> sent = new ArrayList<>();
  final RuleManager manager;
  private final Map<String, LongFunction<List<Value.Sample>>> answers = new HashMap<>();
  private final Map<Expr, String> ruleOfExpr = new IdentityHashMap<>();

  RuleHarness(String yaml, RuleManager.Options options) {
    List<RuleGroupSpec> groups = RuleFileLoader.withPromql().parse("rules.yml", yaml);
    groups.forEach(g -> g.rules().forEach(r -> ruleOfExpr.put(r.expr(), r.name())));
    manager = new RuleManager(groups, options, this::query, storage, sent::add, () -> 0L);
  }

  /** The rule's expression answers with these samples at every evaluation time. */
  void answer(String rule, LongFunction<List<Value.Sample>> answer) {
    answers.put(rule, answer);
  }

  private Value.Vector query(Expr expr, long timeMs) {
    return new Value.Vector(
        answers.getOrDefault(ruleOfExpr.get(expr), t -> List.of()).apply(timeMs));
  }

  /** Schedules at {@code startMs}; returns the first evaluation time. */
  long start(long startMs) {
    manager.evaluateDue(startMs);
    return manager.nextDueMs();
  }

  /** Runs the next due evaluation; returns its time. */
  long step() {
    long t = manager.nextDueMs();
    manager.evaluateDue(t);
    return t;
  }

  List<StoredSeries> series(String name) {
    return storage.select(
        List.of(LabelMatcher.of(LabelMatcher.Type.EQUAL, LabelSet.METRIC_NAME, name)),
        Long.MIN_VALUE,
        Long.MAX_VALUE);
  }

  static Value.Sample sample(double value, String... labels) {
    return new Value.Sample(LabelSet.of(labels), 0, value);
  }
}
