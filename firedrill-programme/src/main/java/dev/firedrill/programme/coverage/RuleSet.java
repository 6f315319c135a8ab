package dev.firedrill.programme.coverage;

import dev.firedrill.alerting.Floor;
import dev.firedrill.alerting.Floors;
import dev.firedrill.alerting.RuleBook;
import dev.firedrill.alerting.lint.Finding;
import dev.firedrill.alerting.lint.PromQl;
import dev.firedrill.alerting.lint.RuleFile;
import dev.firedrill.alerting.lint.RulesLint;
import dev.firedrill.prometheus.Rule;
import dev.firedrill.prometheus.RuleGroup;
import dev.firedrill.yaml.Problem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The alerting rules coverage reports on, read from rule files and directories (plain files or
 * PrometheusRule objects): each alert with its floor (core's {@link Floors}, through the recording
 * rules of the same set) and whether it goes silent when its input series stop (the rules lint's
 * absent() companion check).
 */
public final class RuleSet {

  /** One alerting rule as coverage shows it. */
  public record Alert(String name, Floor floor, boolean silentWithoutData) {}

  /** Rule files that could not be read: every problem, each naming its file. */
  public static final class Unreadable extends Exception {
    private static final long serialVersionUID = 1L;

    Unreadable(List<Problem> problems) {
      super(problems.stream().map(Problem::toString).collect(Collectors.joining("\n")));
    }
  }

  /** The words of the lint's companion finding, singular and plural alike. */
  private static final String NO_COMPANION = "absent() companion";

  private RuleSet() {}

  /**
   * The alerts of {@code paths} (files, and the {@code *.yml}/{@code *.yaml} directly inside
   * directories), in file order, an alert defined twice once; intervals are the server's.
   */
  public static List<Alert> read(List<Path> paths, Duration scrape, Duration evaluation)
      throws Unreadable {
    List<Problem> problems = new ArrayList<>();
    List<RuleFile> files = RuleFile.readAll(paths, problems);
    if (!problems.isEmpty()) {
      throw new Unreadable(problems);
    }
    return alerts(files, scrape, evaluation);
  }

  /**
   * The alerts a live Prometheus evaluates ({@code /api/v1/rules}), read as rule files are; a rule
   * whose expression the parser refuses is skipped (Prometheus loaded it, so the parser is behind).
   */
  public static List<Alert> fromApi(List<RuleGroup> groups, Duration scrape, Duration evaluation) {
    List<RuleFile> files = new ArrayList<>();
    for (RuleGroup group : groups) {
      List<RuleFile.Rule> rules = new ArrayList<>();
      for (Rule rule : group.rules()) {
        PromQl.Scan scan;
        try {
          scan = PromQl.scan(rule.query());
        } catch (PromQl.Unreadable e) {
          continue;
        }
        if (rule instanceof Rule.Alerting a) {
          rules.add(
              new RuleFile.Rule(
                  "alert",
                  a.name(),
                  a.query(),
                  scan,
                  a.duration(),
                  a.labels(),
                  a.annotations(),
                  0));
        } else {
          rules.add(
              new RuleFile.Rule(
                  "record", rule.name(), rule.query(), scan, null, rule.labels(), Map.of(), 0));
        }
      }
      files.add(
          new RuleFile(
              group.file(), List.of(new RuleFile.Group(group.name(), group.interval(), rules))));
    }
    return alerts(files, scrape, evaluation);
  }

  static List<Alert> alerts(List<RuleFile> files, Duration scrape, Duration evaluation) {
    RuleBook book = RuleBook.of(files, scrape, evaluation);
    Set<String> silent =
        RulesLint.lint(files, List.of(), new RulesLint.Settings(scrape, "", evaluation, ""))
            .stream()
            .filter(f -> f.kind().equals("alert") && f.message().contains(NO_COMPANION))
            .map(Finding::rule)
            .collect(Collectors.toSet());
    Map<String, Alert> alerts = new LinkedHashMap<>();
    for (RuleBook.AlertRule rule : book.alerting()) {
      alerts.putIfAbsent(
          rule.name(), new Alert(rule.name(), Floors.of(rule, book), silent.contains(rule.name())));
    }
    return List.copyOf(alerts.values());
  }
}
