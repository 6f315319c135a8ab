package dev.firedrill.embedded.rules;

import dev.firedrill.embedded.rules.snapshot.RuleSnapshot;
import dev.firedrill.promql.eval.Value;
import java.util.List;

/** A rule being evaluated: its state between evaluations, guarded by the rule itself. */
sealed interface Rule permits RecordingRule, AlertingRule {

  RuleSpec spec();

  /**
   * Evaluates at {@code timeMs}: the samples to write. Throws on failure; the message is the rule's
   * lastError.
   */
  List<Value.Sample> eval(long timeMs, RuleQuery query, int limit);

  /** Records the outcome of the evaluation that started at {@code startedMs} (wall clock). */
  void evaluated(long startedMs, long durationNanos, String error);

  RuleSnapshot snapshot();
}
