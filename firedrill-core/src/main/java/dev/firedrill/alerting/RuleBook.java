package dev.firedrill.alerting;

import dev.firedrill.alerting.lint.RuleFile;
import dev.firedrill.time.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Prometheus's rules and intervals, as detection needs them: the alerting rules, the recording
 * rules' expressions by name (to see through them to their range windows), the scrape and
 * evaluation intervals and the rules' query offset, where those intervals came from ({@code
 * intervalsSource}, for plan and the console), and, when the rules source answered no rule group at
 * all, its likely cause.
 */
public record RuleBook(
    List<AlertRule> alerting,
    Map<String, String> recording,
    Duration scrapeInterval,
    Duration evaluationInterval,
    Duration queryOffset,
    String intervalsSource,
    Optional<String> noRulesCause) {

  public RuleBook {
    alerting = List.copyOf(alerting);
    recording = Map.copyOf(recording);
    queryOffset = queryOffset == null ? Duration.ZERO : queryOffset;
    intervalsSource = intervalsSource == null ? "given" : intervalsSource;
    noRulesCause = noRulesCause == null ? Optional.empty() : noRulesCause;
  }

  /** A book with no query offset, as tests and simulations build one. */
  public RuleBook(
      List<AlertRule> alerting,
      Map<String, String> recording,
      Duration scrapeInterval,
      Duration evaluationInterval) {
    this(
        alerting,
        recording,
        scrapeInterval,
        evaluationInterval,
        Duration.ZERO,
        "given",
        Optional.empty());
  }

  /**
   * The book of rule files: each alerting rule with its group's interval (else {@code evaluation}),
   * the first definition of each recording rule.
   */
  public static RuleBook of(List<RuleFile> files, Duration scrape, Duration evaluation) {
    List<AlertRule> alerting = new ArrayList<>();
    Map<String, String> recording = new LinkedHashMap<>();
    for (RuleFile file : files) {
      for (RuleFile.Group group : file.groups()) {
        Duration interval = group.interval() != null ? group.interval() : evaluation;
        for (RuleFile.Rule rule : group.rules()) {
          if (rule.isAlert()) {
            alerting.add(
                new AlertRule(
                    rule.name(),
                    rule.expr(),
                    rule.forDuration() == null ? Duration.ZERO : rule.forDuration(),
                    interval,
                    rule.labels(),
                    rule.annotations()));
          } else {
            recording.putIfAbsent(rule.name(), rule.expr());
          }
        }
      }
    }
    return new RuleBook(alerting, recording, scrape, evaluation);
  }

  /** One line: {@code intervals: scrape 15s, evaluation 15s, query offset 0s, from ...}. */
  public String intervalsText() {
    return "intervals: scrape "
        + Durations.format(scrapeInterval)
        + ", evaluation "
        + Durations.format(evaluationInterval)
        + ", query offset "
        + Durations.format(queryOffset)
        + ", "
        + intervalsSource;
  }

  /**
   * The alerting rule {@code name} names: by its name (a Grafana rule's title), else by a Grafana
   * rule's UID.
   */
  public Optional<AlertRule> alert(String name) {
    return alerting.stream()
        .filter(rule -> rule.name().equals(name))
        .findFirst()
        .or(
            () ->
                alerting.stream().filter(rule -> rule.uid().equals(Optional.of(name))).findFirst());
  }

  /**
   * An alerting rule: its expression, {@code for}, the interval of the group that evaluates it, and
   * a Grafana-managed rule's UID (its {@code name} is then the rule's title).
   */
  public record AlertRule(
      String name,
      String query,
      Duration forDuration,
      Duration groupInterval,
      Map<String, String> labels,
      Map<String, String> annotations,
      Optional<String> uid) {
    public AlertRule {
      labels = Map.copyOf(labels);
      annotations = Map.copyOf(annotations);
      uid = uid == null ? Optional.empty() : uid;
    }

    /** A Prometheus rule, which has no UID. */
    public AlertRule(
        String name,
        String query,
        Duration forDuration,
        Duration groupInterval,
        Map<String, String> labels,
        Map<String, String> annotations) {
      this(name, query, forDuration, groupInterval, labels, annotations, Optional.empty());
    }

    /**
     * How plan names the rule an expectation matched: {@code Grafana rule "Title" (uid X)}, or
     * empty for a Prometheus rule.
     */
    public Optional<String> grafanaName() {
      return uid.map(u -> "Grafana rule \"" + name + "\" (uid " + u + ")");
    }
  }
}
