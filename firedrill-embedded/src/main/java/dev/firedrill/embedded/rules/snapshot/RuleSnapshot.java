package dev.firedrill.embedded.rules.snapshot;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A rule as {@code /api/v1/rules} shows it. {@code lastError} is empty when there is none
 * (Prometheus then leaves the field out); {@code lastEvaluation} is empty before the first
 * evaluation (Prometheus writes Go's zero time); durations are seconds.
 */
public sealed interface RuleSnapshot {

  String name();

  String query();

  Map<String, String> labels();

  String health();

  String lastError();

  Optional<Instant> lastEvaluation();

  double evaluationTime();

  /** {@code alerting} or {@code recording}. */
  String type();

  record Alerting(
      String state,
      String name,
      String query,
      double duration,
      double keepFiringFor,
      Map<String, String> labels,
      Map<String, String> annotations,
      List<AlertSnapshot> alerts,
      String health,
      String lastError,
      Optional<Instant> lastEvaluation,
      double evaluationTime)
      implements RuleSnapshot {
    public Alerting {
      labels = Map.copyOf(labels);
      annotations = Map.copyOf(annotations);
      alerts = List.copyOf(alerts);
    }

    public String type() {
      return "alerting";
    }
  }

  record Recording(
      String name,
      String query,
      Map<String, String> labels,
      String health,
      String lastError,
      Optional<Instant> lastEvaluation,
      double evaluationTime)
      implements RuleSnapshot {
    public Recording {
      labels = Map.copyOf(labels);
    }

    public String type() {
      return "recording";
    }
  }
}
