package dev.firedrill.alerting;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Prometheus's rules and intervals, as detection needs them: the alerting rules, the recording
 * rules' expressions by name (to see through them to their range windows), and the scrape and
 * evaluation intervals.
 */
public record RuleBook(List<AlertRule> alerting, Map<String, String> recording, Duration scrapeInterval,
    Duration evaluationInterval) {

  public RuleBook {
    alerting = List.copyOf(alerting);
    recording = Map.copyOf(recording);
  }

  public Optional<AlertRule> alert(String name) {
    return alerting.stream().filter(rule -> rule.name().equals(name)).findFirst();
  }

  /** An alerting rule: its expression, {@code for}, and the interval of the group that evaluates it. */
  public record AlertRule(String name, String query, Duration forDuration, Duration groupInterval,
      Map<String, String> labels, Map<String, String> annotations) {
    public AlertRule {
      labels = Map.copyOf(labels);
      annotations = Map.copyOf(annotations);
    }
  }
}
