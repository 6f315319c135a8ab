package dev.firedrill.embedded.rules.snapshot;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A rule group as {@code /api/v1/rules} shows it; {@code interval} and {@code evaluationTime} are
 * seconds.
 */
public record GroupSnapshot(
    String name,
    String file,
    List<RuleSnapshot> rules,
    double interval,
    int limit,
    double evaluationTime,
    Optional<Instant> lastEvaluation) {

  public GroupSnapshot {
    rules = List.copyOf(rules);
  }
}
