package dev.firedrill.embedded.rules;

import dev.firedrill.embedded.notify.AlertSink;
import dev.firedrill.embedded.notify.OutgoingAlert;
import dev.firedrill.embedded.rules.snapshot.GroupSnapshot;
import dev.firedrill.embedded.storage.Appender;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.eval.Value;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.StaleNaN;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * A group's rules evaluated in order at one timestamp, each rule's samples written before the next
 * runs, so a recording rule's result is visible to the rules after it. A series a rule wrote last
 * time and not this time gets a staleness marker, as Prometheus writes one.
 */
final class RuleGroup {

  private final RuleGroupSpec spec;
  private final long intervalMs;
  private final EvalSchedule schedule;
  private final List<Rule> rules;
  private final List<Set<LabelSet>> seriesInPreviousEval = new ArrayList<>();
  private long nextEvalMs = Long.MIN_VALUE;
  private long missed;
  private long lastEvaluationMs = Long.MIN_VALUE;
  private long durationNanos;

  RuleGroup(RuleGroupSpec spec, long intervalMs, List<Rule> rules, Compat compat) {
    this.spec = spec;
    this.intervalMs = intervalMs;
    this.schedule = new EvalSchedule(spec.file(), spec.name(), intervalMs, compat);
    this.rules = List.copyOf(rules);
    rules.forEach(rule -> seriesInPreviousEval.add(Set.of()));
  }

  /**
   * The evaluation due by {@code nowMs}, if any: the latest slot not after it. Slots passed over
   * are skipped and counted, as Prometheus skips missed iterations rather than catching up. The
   * first slot is the one after {@code nowMs} at the first call, as Prometheus waits for it.
   */
  synchronized Optional<Long> due(long nowMs) {
    if (nextEvalMs == Long.MIN_VALUE) {
      nextEvalMs = schedule.slotAtOrBefore(nowMs) + intervalMs;
    }
    if (nowMs < nextEvalMs) {
      return Optional.empty();
    }
    long skipped = (nowMs - nextEvalMs) / intervalMs;
    missed += skipped;
    long slot = nextEvalMs + skipped * intervalMs;
    nextEvalMs = slot + intervalMs;
    return Optional.of(slot);
  }

  synchronized long nextEvalMs() {
    return nextEvalMs;
  }

  synchronized long missed() {
    return missed;
  }

  List<Rule> rules() {
    return rules;
  }

  /**
   * Evaluates every rule at {@code timeMs}; {@code startedMs} is the wall-clock start for the API.
   */
  void evaluate(
      long timeMs,
      long startedMs,
      RuleQuery query,
      Appender appender,
      AlertSink sink,
      long resendDelayMs,
      LongSupplier nanoTime) {
    long groupStart = nanoTime.getAsLong();
    for (int i = 0; i < rules.size(); i++) {
      Rule rule = rules.get(i);
      long ruleStart = nanoTime.getAsLong();
      List<Value.Sample> samples;
      try {
        samples = rule.eval(timeMs, query, spec.limit());
      } catch (RuntimeException e) {
        rule.evaluated(startedMs, nanoTime.getAsLong() - ruleStart, message(e));
        continue;
      }
      if (rule instanceof AlertingRule alerting) {
        List<OutgoingAlert> due = alerting.alertsToSend(timeMs, resendDelayMs, intervalMs);
        if (!due.isEmpty()) {
          sink.send(due);
        }
      }
      String error = null;
      Set<LabelSet> written = new HashSet<>();
      for (Value.Sample sample : samples) {
        if (appender.append(sample.labels(), sample.timestampMs(), sample.value())) {
          written.add(sample.labels());
        } else {
          error = "out of order sample or duplicate sample for timestamp: " + sample.labels();
        }
      }
      for (LabelSet gone : seriesInPreviousEval.get(i)) {
        if (!written.contains(gone)) {
          appender.append(gone, timeMs, StaleNaN.VALUE);
        }
      }
      seriesInPreviousEval.set(i, written);
      rule.evaluated(startedMs, nanoTime.getAsLong() - ruleStart, error);
    }
    synchronized (this) {
      lastEvaluationMs = startedMs;
      durationNanos = nanoTime.getAsLong() - groupStart;
    }
  }

  private static String message(RuntimeException e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  synchronized GroupSnapshot snapshot() {
    return new GroupSnapshot(
        spec.name(),
        spec.file(),
        rules.stream().map(Rule::snapshot).toList(),
        intervalMs / 1000.0,
        spec.limit(),
        durationNanos / 1e9,
        lastEvaluationMs == Long.MIN_VALUE
            ? Optional.empty()
            : Optional.of(Instant.ofEpochMilli(lastEvaluationMs)));
  }
}
