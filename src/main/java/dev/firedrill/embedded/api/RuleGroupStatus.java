package dev.firedrill.embedded.api;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A rule group as {@code /api/v1/rules} shows it: what the rule manager reports, in the terms of
 * Prometheus's API. {@code lastEvaluation} is empty before the first evaluation (Go's zero time).
 */
public record RuleGroupStatus(String name, String file, Duration interval, int limit, Duration evaluationTime,
    Optional<Instant> lastEvaluation, List<Rule> rules) {

  public RuleGroupStatus {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(file, "file");
    rules = List.copyOf(rules);
  }

  public enum Health {
    UNKNOWN("unknown"), OK("ok"), ERR("err");

    final String apiName;

    Health(String apiName) {
      this.apiName = apiName;
    }
  }

  public enum State {
    INACTIVE("inactive"), PENDING("pending"), FIRING("firing");

    final String apiName;

    State(String apiName) {
      this.apiName = apiName;
    }
  }

  /** What both kinds of rule report. {@code query} is the expression as Prometheus prints it back. */
  public sealed interface Rule {
    String name();

    String query();

    Map<String, String> labels();

    Health health();

    Optional<String> lastError();

    Duration evaluationTime();

    Optional<Instant> lastEvaluation();
  }

  public record Recording(String name, String query, Map<String, String> labels, Health health,
      Optional<String> lastError, Duration evaluationTime, Optional<Instant> lastEvaluation) implements Rule {
    public Recording {
      labels = new TreeMap<>(labels);
    }
  }

  /** {@code holdDuration} is the rule's {@code for}. */
  public record Alerting(String name, String query, Duration holdDuration, Duration keepFiringFor,
      Map<String, String> labels, Map<String, String> annotations, State state, List<Alert> alerts, Health health,
      Optional<String> lastError, Duration evaluationTime, Optional<Instant> lastEvaluation) implements Rule {
    public Alerting {
      labels = new TreeMap<>(labels);
      annotations = new TreeMap<>(annotations);
      alerts = List.copyOf(alerts);
    }
  }

  /** One pending or firing alert of an alerting rule. */
  public record Alert(Map<String, String> labels, Map<String, String> annotations, State state, Instant activeAt,
      Optional<Instant> keepFiringSince, double value) {
    public Alert {
      labels = new TreeMap<>(labels);
      annotations = new TreeMap<>(annotations);
      Objects.requireNonNull(activeAt, "activeAt");
    }
  }
}
