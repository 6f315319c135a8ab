package dev.firedrill.alerting.lint;

import dev.firedrill.time.Durations;
import dev.firedrill.yaml.Problem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Lints the alerting and recording rules of one directory. The checks, each a {@link Finding}:
 *
 * <ol>
 *   <li>an alert without a {@code runbook_url} annotation;
 *   <li>an alert whose expression cannot filter: an alert fires for every series its expression
 *       returns, so it needs a comparison ({@code >, <, >=, <=, ==, !=}) outside label matchers and
 *       without {@code bool} (a {@code bool} comparison returns 0 or 1 for every series and drops
 *       none), or an {@code absent()}/{@code absent_over_time()} call (which returns a series only
 *       when its input is missing). {@code and}/{@code unless} alone do not count: they filter on
 *       labels, not values. An expression that reads no series at all ({@code vector(1)}, a
 *       watchdog) is exempt;
 *   <li>an alert whose input series (the metric names its expression reads, followed through the
 *       recording rules of the directory and of the Prometheus configuration's rule files) have no
 *       {@code absent()}/{@code absent_over_time()} companion alert. Names are compared, not label
 *       matchers: {@code absent(x{service="a"})} covers every alert reading {@code x};
 *   <li>a range window ({@code [5m]}, or a subquery's range {@code [1h:1m]}) in any rule shorter
 *       than four scrape intervals: rate() needs two samples, and four intervals keep it answering
 *       through a missed scrape;
 *   <li>a {@code for} shorter than the evaluation interval (the group's {@code interval}, else the
 *       global one): the alert is pending for at least one evaluation anyway;
 *   <li>a call of {@code holt_winters}, which Prometheus 3.0 renamed {@code
 *       double_exponential_smoothing} and put behind {@code
 *       --enable-feature=promql-experimental-functions}: Prometheus 3 refuses the rule;
 *   <li>an {@code le} or {@code quantile} matcher on a whole number ({@code le="1"}): Prometheus 3
 *       normalises those labels of classic histograms and summaries to floats ({@code le="1.0"}),
 *       so the matcher matches nothing there;
 *   <li>a one-point subquery: its range not longer than its resolution, or, without a resolution,
 *       than the global evaluation interval it then takes; every evaluation sees a single point.
 * </ol>
 *
 * <p>Expressions are read by the project's PromQL parser in its Prometheus 3 syntax (which takes
 * v2.x's too): duration expressions, bare-number ranges, quoted UTF-8 names and the 3.x modifiers
 * are understood.
 */
public final class RulesLint {

  /** The intervals the checks use, and where each came from (for the messages). */
  public record Settings(
      Duration scrapeInterval,
      String scrapeSource,
      Duration evaluationInterval,
      String evaluationSource) {

    public Settings {
      Objects.requireNonNull(scrapeInterval, "scrapeInterval");
      Objects.requireNonNull(evaluationInterval, "evaluationInterval");
      if (scrapeInterval.isZero()
          || scrapeInterval.isNegative()
          || evaluationInterval.isZero()
          || evaluationInterval.isNegative()) {
        throw new IllegalArgumentException("intervals must be positive");
      }
    }
  }

  /**
   * Findings, or problems reading the input (then the findings are those of the files that were
   * read).
   */
  public record Report(List<Finding> findings, List<Problem> problems, int files, int rules) {}

  static final int WINDOW_SCRAPES = 4;
  private static final Pattern LEGACY_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

  private RulesLint() {}

  /**
   * Reads every file named and every {@code *.yml}/{@code *.yaml} directly in each directory named
   * (as promtool takes both), and lints them as one set; {@code contextFiles} only add definitions.
   */
  public static Report lint(List<Path> paths, Settings settings, List<Path> contextFiles) {
    List<Problem> problems = new ArrayList<>();
    List<Path> ruleFiles = new ArrayList<>();
    for (Path path : paths) {
      if (Files.isDirectory(path)) {
        List<Path> inside = ruleFilesIn(path, problems);
        if (inside != null && inside.isEmpty()) {
          problems.add(
              new Problem(
                  path.toString(), "", "no rule files (*.yml, *.yaml) in this directory", 0, 0));
        }
        ruleFiles.addAll(inside == null ? List.of() : inside);
      } else if (Files.isRegularFile(path)) {
        ruleFiles.add(path);
      } else {
        problems.add(new Problem(path.toString(), "", "no such file or directory", 0, 0));
      }
    }
    if (!problems.isEmpty()) {
      return new Report(List.of(), problems, 0, 0);
    }
    Set<Path> seen = new HashSet<>();
    List<RuleFile> files = new ArrayList<>();
    int read = 0;
    for (Path path : ruleFiles) {
      if (seen.add(real(path))) {
        read++;
        files.addAll(RuleFile.read(path, path.toString(), problems));
      }
    }
    List<RuleFile> context = new ArrayList<>();
    for (Path path : contextFiles) {
      if (seen.add(real(path))) {
        context.addAll(RuleFile.read(path, path.toString(), problems));
      }
    }
    int rules =
        files.stream().flatMap(f -> f.groups().stream()).mapToInt(g -> g.rules().size()).sum();
    return new Report(lint(files, context, settings), List.copyOf(problems), read, rules);
  }

  private static List<Path> ruleFilesIn(Path dir, List<Problem> problems) {
    try (Stream<Path> list = Files.list(dir)) {
      return list.filter(p -> Files.isRegularFile(p) && isRuleFileName(p.getFileName().toString()))
          .sorted()
          .toList();
    } catch (IOException e) {
      problems.add(new Problem(dir.toString(), "", "cannot list: " + e.getMessage(), 0, 0));
      return null;
    }
  }

  private static boolean isRuleFileName(String name) {
    return name.endsWith(".yml") || name.endsWith(".yaml");
  }

  private static Path real(Path path) {
    try {
      return path.toRealPath();
    } catch (IOException e) {
      return path.toAbsolutePath().normalize();
    }
  }

  /** Lints {@code files}; {@code context} only contributes recording rules and companion alerts. */
  public static List<Finding> lint(
      List<RuleFile> files, List<RuleFile> context, Settings settings) {
    List<RuleFile> all = new ArrayList<>(files);
    all.addAll(context);
    Map<String, Set<String>> recorded = new LinkedHashMap<>();
    for (RuleFile file : all) {
      for (RuleFile.Group group : file.groups()) {
        for (RuleFile.Rule rule : group.rules()) {
          if (!rule.isAlert()) {
            Set<String> inputs = recorded.computeIfAbsent(rule.name(), k -> new LinkedHashSet<>());
            inputs.addAll(rule.scan().metrics());
            inputs.addAll(rule.scan().absentMetrics());
          }
        }
      }
    }
    Set<String> covered = new HashSet<>();
    for (RuleFile file : all) {
      for (RuleFile.Group group : file.groups()) {
        for (RuleFile.Rule rule : group.rules()) {
          if (rule.isAlert()) {
            for (String name : rule.scan().absentMetrics()) {
              covered.add(name);
              covered.addAll(leaves(name, recorded).keySet());
            }
          }
        }
      }
    }
    List<Finding> findings = new ArrayList<>();
    for (RuleFile file : files) {
      for (RuleFile.Group group : file.groups()) {
        for (RuleFile.Rule rule : group.rules()) {
          for (String message : check(rule, group, recorded, covered, settings)) {
            findings.add(new Finding(file.name(), group.name(), rule.kind(), rule.name(), message));
          }
        }
      }
    }
    return List.copyOf(findings);
  }

  private static List<String> check(
      RuleFile.Rule rule,
      RuleFile.Group group,
      Map<String, Set<String>> recorded,
      Set<String> covered,
      Settings settings) {
    List<String> messages = new ArrayList<>();
    PromQl.Scan scan = rule.scan();
    if (rule.isAlert()) {
      String runbook = rule.annotations().get("runbook_url");
      if (runbook == null || runbook.isBlank()) {
        messages.add(
            "no runbook_url annotation; add annotations.runbook_url pointing at the runbook");
      }
      if (scan.readsSeries() && scan.filterComparisons() == 0 && !scan.callsAbsent()) {
        messages.add(
            scan.boolComparisons() > 0
                ? "expr compares only with bool, which returns 0 or 1 for every series instead of dropping the ones "
                    + "that pass, so the alert always fires; remove bool"
                : "expr has no comparison (>, <, >=, <=, ==, !=) and no absent(), so the alert fires whenever its series "
                    + "exist, whatever their values; compare it with a threshold, e.g. expr > 0.05");
      }
      Map<String, String> inputs = new LinkedHashMap<>();
      for (String name : new TreeSet<>(scan.metrics())) {
        leaves(name, recorded).forEach(inputs::putIfAbsent);
      }
      List<String> missing =
          inputs.keySet().stream().filter(n -> !covered.contains(n)).sorted().toList();
      if (!missing.isEmpty()) {
        String names =
            missing.stream()
                .map(n -> inputs.get(n) == null ? n : n + " (read through " + inputs.get(n) + ")")
                .collect(Collectors.joining(", "));
        String fixes =
            missing.stream()
                .map(n -> "absent(" + selector(n) + ")")
                .collect(Collectors.joining(", "));
        messages.add(
            missing.size() == 1
                ? "input series "
                    + names
                    + " has no absent() companion alert, so this alert goes silent when the series "
                    + "stops; add an alert on "
                    + fixes
                    + " with a for"
                : "input series "
                    + names
                    + " have no absent() companion alerts, so this alert goes silent when they "
                    + "stop; add alerts on "
                    + fixes
                    + ", each with a for");
      }
    }
    Duration minimum = settings.scrapeInterval().multipliedBy(WINDOW_SCRAPES);
    Set<String> reported = new HashSet<>();
    for (PromQl.Range range : scan.ranges()) {
      if (range.range().compareTo(minimum) < 0 && reported.add(range.text())) {
        messages.add(
            "range window ["
                + range.text()
                + "] is shorter than four scrape intervals (4 x "
                + Durations.format(settings.scrapeInterval())
                + " = "
                + Durations.format(minimum)
                + ", scrape interval from "
                + settings.scrapeSource()
                + "), so rate() sees too few samples and nothing after one missed scrape; use ["
                + Durations.format(minimum)
                + "] or longer");
      }
    }
    if (scan.callsHoltWinters()) {
      messages.add(
          "holt_winters is gone from Prometheus 3: 3.0 renamed it double_exponential_smoothing and put it "
              + "behind --enable-feature=promql-experimental-functions, so Prometheus 3 refuses this rule; on 3.x rename "
              + "it and enable that flag");
    }
    for (String matcher : new LinkedHashSet<>(scan.wholeNumberBucketMatchers())) {
      boolean equal = !matcher.contains("!=");
      String label = matcher.substring(0, matcher.indexOf(equal ? '=' : '!'));
      String value = matcher.substring(matcher.indexOf('"') + 1, matcher.length() - 1);
      messages.add(
          matcher
              + (equal ? " matches nothing" : " excludes nothing")
              + " on Prometheus 3, which normalises "
              + "the le label of classic histograms and the quantile label of summaries to floats ("
              + label
              + "=\""
              + value
              + ".0\"); write "
              + label
              + (equal ? "=~" : "!~")
              + "\""
              + value
              + "(\\\\.0)?\" to match on 2.x and 3.x "
              + "alike");
    }
    for (PromQl.Subquery subquery : scan.subqueries()) {
      if (subquery.resolution() != null && subquery.range().compareTo(subquery.resolution()) <= 0) {
        messages.add(
            "subquery ["
                + subquery.text()
                + "] has a range not longer than its resolution, so it holds one "
                + "point per evaluation and the function over it sees a single sample; make the range several times "
                + "the resolution");
      } else if (subquery.resolution() == null
          && subquery.range().compareTo(settings.evaluationInterval()) <= 0) {
        messages.add(
            "subquery ["
                + subquery.text()
                + "] has no resolution, so it takes the global evaluation interval "
                + Durations.format(settings.evaluationInterval())
                + " (from "
                + settings.evaluationSource()
                + "), and "
                + "its range is not longer than that: it holds one point per evaluation; give it a resolution shorter "
                + "than its range");
      }
    }
    if (rule.isAlert() && rule.forDuration() != null && !rule.forDuration().isZero()) {
      Duration interval =
          group.interval() != null ? group.interval() : settings.evaluationInterval();
      String source =
          group.interval() != null ? "the group's interval" : "from " + settings.evaluationSource();
      if (rule.forDuration().compareTo(interval) < 0) {
        messages.add(
            "for "
                + Durations.format(rule.forDuration())
                + " is shorter than the evaluation interval "
                + Durations.format(interval)
                + " ("
                + source
                + "), so the alert stays pending a whole evaluation "
                + "anyway; set for to "
                + Durations.format(interval)
                + " or more, or remove it");
      }
    }
    return messages;
  }

  /** A selector of the metric: its bare name, or Prometheus 3's quoted form for a UTF-8 name. */
  static String selector(String name) {
    return LEGACY_NAME.matcher(name).matches()
        ? name
        : "{\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
  }

  /**
   * The raw series a name stands for: itself when no recording rule defines it, else the inputs of
   * its recording rules, followed down; each mapped to the recording rule it was first reached
   * through (null for the name itself).
   */
  static Map<String, String> leaves(String name, Map<String, Set<String>> recorded) {
    Map<String, String> out = new LinkedHashMap<>();
    walk(name, null, recorded, new HashSet<>(), out);
    return out;
  }

  private static void walk(
      String name,
      String via,
      Map<String, Set<String>> recorded,
      Set<String> visiting,
      Map<String, String> out) {
    Set<String> inputs = recorded.get(name);
    if (inputs == null) {
      out.putIfAbsent(name, via);
      return;
    }
    if (!visiting.add(name)) {
      return; // a cycle: promtool rejects nothing here, Prometheus just evaluates stale data
    }
    for (String input : new TreeSet<>(inputs)) {
      walk(input, via == null ? name : via, recorded, visiting, out);
    }
  }
}
