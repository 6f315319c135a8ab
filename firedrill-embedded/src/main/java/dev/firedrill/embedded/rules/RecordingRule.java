package dev.firedrill.embedded.rules;

import dev.firedrill.embedded.rules.snapshot.RuleSnapshot;
import dev.firedrill.promql.eval.Value;
import dev.firedrill.promql.model.LabelSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** A recording rule: the expression's result under the record name, with the rule's labels set. */
final class RecordingRule implements Rule {

  private final RuleSpec.Recording spec;
  private final RuleStatus status = new RuleStatus();

  RecordingRule(RuleSpec.Recording spec) {
    this.spec = spec;
  }

  @Override
  public RuleSpec.Recording spec() {
    return spec;
  }

  @Override
  public List<Value.Sample> eval(long timeMs, RuleQuery query, int limit) {
    List<Value.Sample> out = new ArrayList<>();
    Set<LabelSet> seen = new HashSet<>();
    for (Value.Sample sample : query.query(spec.expr(), timeMs).samples()) {
      LabelSet.Builder labels = sample.labels().toBuilder().set(LabelSet.METRIC_NAME, spec.name());
      spec.labels().forEach(labels::set);
      LabelSet built = labels.build();
      if (!seen.add(built)) {
        throw new IllegalStateException(
            "vector contains metrics with the same labelset after applying rule labels");
      }
      out.add(new Value.Sample(built, timeMs, sample.value()));
    }
    if (limit > 0 && out.size() > limit) {
      throw new IllegalStateException(
          "exceeded limit of " + limit + " with " + out.size() + " series");
    }
    return out;
  }

  @Override
  public void evaluated(long startedMs, long durationNanos, String error) {
    status.set(startedMs, durationNanos, error);
  }

  @Override
  public RuleSnapshot snapshot() {
    return new RuleSnapshot.Recording(
        spec.name(),
        spec.query(),
        spec.labels(),
        status.health().apiName(),
        status.lastError(),
        status.lastEvaluation(),
        status.evaluationSeconds());
  }
}
