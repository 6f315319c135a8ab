package dev.firedrill.prometheus;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** A rule from {@code /api/v1/rules}. */
public sealed interface Rule {

  String name();

  String query();

  Map<String, String> labels();

  /** {@code ok}, {@code err} or {@code unknown} (not evaluated yet). */
  String health();

  Optional<String> lastError();

  /** Empty before the first evaluation. */
  Optional<Instant> lastEvaluation();

  /**
   * An alerting rule.
   *
   * @param duration its {@code for}
   * @param state {@code inactive}, {@code pending} or {@code firing}: the most urgent of its alerts
   * @param uid a Grafana-managed rule's UID (Grafana's {@code uid}); empty for Prometheus's rules
   */
  record Alerting(
      String name,
      String query,
      Duration duration,
      Map<String, String> labels,
      Map<String, String> annotations,
      String health,
      Optional<String> lastError,
      Optional<Instant> lastEvaluation,
      String state,
      List<PrometheusAlert> alerts,
      Optional<String> uid)
      implements Rule {

    /** A Prometheus rule, which has no UID. */
    public Alerting(
        String name,
        String query,
        Duration duration,
        Map<String, String> labels,
        Map<String, String> annotations,
        String health,
        Optional<String> lastError,
        Optional<Instant> lastEvaluation,
        String state,
        List<PrometheusAlert> alerts) {
      this(
          name,
          query,
          duration,
          labels,
          annotations,
          health,
          lastError,
          lastEvaluation,
          state,
          alerts,
          Optional.empty());
    }

    public Alerting {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(query, "query");
      Objects.requireNonNull(duration, "duration");
      labels = PrometheusAlert.sorted(labels);
      annotations = PrometheusAlert.sorted(annotations);
      Objects.requireNonNull(health, "health");
      Objects.requireNonNull(lastError, "lastError");
      Objects.requireNonNull(lastEvaluation, "lastEvaluation");
      Objects.requireNonNull(state, "state");
      alerts = List.copyOf(alerts);
      uid = uid == null ? Optional.empty() : uid;
    }
  }

  /** A recording rule. */
  record Recording(
      String name,
      String query,
      Map<String, String> labels,
      String health,
      Optional<String> lastError,
      Optional<Instant> lastEvaluation)
      implements Rule {

    public Recording {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(query, "query");
      labels = PrometheusAlert.sorted(labels);
      Objects.requireNonNull(health, "health");
      Objects.requireNonNull(lastError, "lastError");
      Objects.requireNonNull(lastEvaluation, "lastEvaluation");
    }
  }
}
