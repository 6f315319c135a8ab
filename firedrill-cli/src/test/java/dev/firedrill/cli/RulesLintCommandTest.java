package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RulesLintCommandTest {

  @TempDir Path dir;

  /**
   * {@code firedrill rules lint ARGS} in-process; RulesLintPrometheus3Test lints through it too.
   */
  static CliRun lint(Object... args) {
    List<String> all = new ArrayList<>(List.of("rules", "lint"));
    for (Object arg : args) {
      all.add(arg.toString());
    }
    return CliRun.of(all.toArray(String[]::new));
  }

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  private List<String> findings(CliRun run) {
    return run.out().lines().filter(l -> l.startsWith(dir.toString() + "/")).toList();
  }

  /** A clean pair: an alert with everything, and its companion. */
  private static final String COMPANION =
      """
        - alert: OrdersAbsent
          expr: absent(orders_total)
          for: 5m
          annotations:
            runbook_url: https://runbooks.example.com/orders-absent
      """;

  @Test
  void aCleanFileExitsZero() throws IOException {
    write(
        "ok.yml",
        """
        groups:
          - name: orders
            rules:
              - record: job:orders:rate5m
                expr: sum by (job) (rate(orders_total[5m]))
              - alert: OrdersStalled
                expr: job:orders:rate5m < 0.1
                for: 5m
                annotations:
                  runbook_url: https://runbooks.example.com/orders-stalled
        """
            + COMPANION.indent(4));
    CliRun run = lint(dir);
    assertThat(run.exit()).as(run.describe()).isZero();
    assertThat(run.out())
        .isEqualTo(
            dir
                + ": clean in 1 file(s), 3 rule(s); scrape interval 1m (Prometheus's default), "
                + "evaluation interval 1m (Prometheus's default)\n");
  }

  @Test
  void anAlertWithoutRunbook() throws IOException {
    write(
        "x.yml",
        """
        groups:
          - name: lab-alerts
            rules:
              - alert: OrdersStalled
                expr: rate(orders_total[5m]) < 0.1
        """
            + COMPANION.indent(4));
    CliRun run = lint(dir);
    assertThat(run.exit()).as(run.describe()).isEqualTo(1);
    assertThat(findings(run))
        .containsExactly(
            dir.resolve("x.yml")
                + ": group lab-alerts, alert OrdersStalled: no runbook_url annotation; add annotations.runbook_url pointing at "
                + "the runbook");
  }

  @Test
  void anAlertWithoutComparisonOrWithOnlyBool() throws IOException {
    write(
        "x.yml",
        """
        groups:
          - name: g
            rules:
              - alert: NoThreshold
                expr: rate(orders_total{code=~"5..", result!="ok"}[5m])
                annotations: {runbook_url: https://r.example.com/a}
              - alert: OnlyBool
                expr: rate(orders_total[5m]) > bool 0.1
                annotations: {runbook_url: https://r.example.com/b}
              - alert: Watchdog
                expr: vector(1)
                annotations: {runbook_url: https://r.example.com/c}
        """
            + COMPANION.indent(4));
    CliRun run = lint(dir);
    assertThat(run.exit()).isEqualTo(1);
    String file = dir.resolve("x.yml").toString();
    assertThat(findings(run))
        .containsExactly(
            file
                + ": group g, alert NoThreshold: expr has no comparison (>, <, >=, <=, ==, !=) and no absent(), so the "
                + "alert fires whenever its series exist, whatever their values; compare it with a threshold, e.g. expr > 0.05",
            file
                + ": group g, alert OnlyBool: expr compares only with bool, which returns 0 or 1 for every series instead "
                + "of dropping the ones that pass, so the alert always fires; remove bool");
  }

  @Test
  void anAlertWhoseInputsHaveNoAbsentCompanionThroughRecordingRules() throws IOException {
    write(
        "a.yml",
        """
        groups:
          - name: sli
            rules:
              - record: service:errors:ratio_rate5m
                expr: sum by (service) (rate(http_requests_total{code=~"5.."}[5m])) / sum by (service) (rate(http_requests_total[5m]))
        """);
    write(
        "b.yml",
        """
        groups:
          - name: alerts
            rules:
              - alert: HighErrors
                expr: service:errors:ratio_rate5m > 0.01 and on (service) rate(orders_total[5m]) > 0 and up == 1
                annotations: {runbook_url: https://r.example.com/a}
              - alert: UpAbsent
                expr: absent(up{job="x"})
                for: 5m
                annotations: {runbook_url: https://r.example.com/b}
        """);
    CliRun run = lint(dir);
    assertThat(run.exit()).isEqualTo(1);
    assertThat(findings(run))
        .containsExactly(
            dir.resolve("b.yml")
                + ": group alerts, alert HighErrors: input series "
                + "http_requests_total (read through service:errors:ratio_rate5m), orders_total have no absent() companion "
                + "alerts, so this alert goes silent when they stop; add alerts on absent(http_requests_total), "
                + "absent(orders_total), each with a for");

    // A companion on the recorded series covers what it reads; one on the raw series covers it
    // directly.
    write(
        "c.yml",
        """
        groups:
          - name: companions
            rules:
              - alert: ErrorsAbsent
                expr: absent(service:errors:ratio_rate5m{service="checkout"})
                for: 5m
                annotations: {runbook_url: https://r.example.com/c}
        """
            + COMPANION.indent(4));
    CliRun clean = lint(dir);
    assertThat(clean.exit()).as(clean.describe()).isZero();
  }

  @Test
  void aSingleMissingCompanionIsNamedInTheSingular() throws IOException {
    write(
        "x.yml",
        """
        groups:
          - name: g
            rules:
              - alert: Stalled
                expr: rate(orders_total[5m]) < 1
                annotations: {runbook_url: https://r.example.com/a}
        """);
    assertThat(findings(lint(dir)))
        .containsExactly(
            dir.resolve("x.yml")
                + ": group g, alert Stalled: input series "
                + "orders_total has no absent() companion alert, so this alert goes silent when the series stops; add an alert "
                + "on absent(orders_total) with a for");
  }

  @Test
  void aRangeWindowShorterThanFourScrapeIntervals() throws IOException {
    write(
        "x.yml",
        """
        groups:
          - name: g
            rules:
              - record: job:orders:rate30s
                expr: sum(rate(orders_total[30s])) / sum(rate(orders_total[30s])) + max_over_time(orders_total[1h:10s])
              - alert: Stalled
                expr: rate(orders_total[1m]) < 1
                annotations: {runbook_url: https://r.example.com/a}
        """
            + COMPANION.indent(4));
    CliRun run = lint(dir, "--scrape-interval", "15s");
    assertThat(run.exit()).isEqualTo(1);
    String file = dir.resolve("x.yml").toString();
    assertThat(findings(run))
        .containsExactly(
            file
                + ": group g, record job:orders:rate30s: range window [30s] is "
                + "shorter than four scrape intervals (4 x 15s = 1m, scrape interval from --scrape-interval), so rate() sees "
                + "too few samples and nothing after one missed scrape; use [1m] or longer");
    assertThat(lint(dir).out())
        .contains(
            "record job:orders:rate30s: range window [30s]",
            "alert Stalled: range window [1m] is shorter than four scrape intervals (4 x 1m = 4m, scrape interval from "
                + "Prometheus's default)");
  }

  @Test
  void aForShorterThanTheEvaluationInterval() throws IOException {
    write(
        "x.yml",
        """
        groups:
          - name: fast
            interval: 30s
            rules:
              - alert: Stalled
                expr: rate(orders_total[5m]) < 1
                for: 10s
                annotations: {runbook_url: https://r.example.com/a}
          - name: global
            rules:
              - alert: Stalled2
                expr: rate(orders_total[5m]) < 1
                for: 30s
                annotations: {runbook_url: https://r.example.com/a}
        """
            + COMPANION.indent(4));
    CliRun run = lint(dir);
    assertThat(run.exit()).isEqualTo(1);
    String file = dir.resolve("x.yml").toString();
    assertThat(findings(run))
        .containsExactly(
            file
                + ": group fast, alert Stalled: for 10s is shorter than the evaluation interval 30s (the group's "
                + "interval), so the alert stays pending a whole evaluation anyway; set for to 30s or more, or remove it",
            file
                + ": group global, alert Stalled2: for 30s is shorter than the evaluation interval 1m (from Prometheus's "
                + "default), so the alert stays pending a whole evaluation anyway; set for to 1m or more, or remove it");
    assertThat(findings(lint(dir, "--evaluation-interval", "10s")))
        .hasSize(1)
        .allMatch(f -> f.contains("group fast"));
  }

  @Test
  void theIntervalsComeFromThePrometheusConfig() throws IOException {
    Path rules = Files.createDirectory(dir.resolve("rules"));
    Files.writeString(
        rules.resolve("x.yml"),
        """
        groups:
          - name: g
            rules:
              - alert: Stalled
                expr: rate(orders_total[15s]) < 1
                for: 5s
                annotations: {runbook_url: https://r.example.com/a}
        """
            + COMPANION.indent(4));
    Path config =
        write(
            "prometheus.yml",
            """
        global: {scrape_interval: 2s, evaluation_interval: 10s}
        scrape_configs:
          - job_name: a
          - job_name: b
            scrape_interval: 5s
        """);
    CliRun run = lint(rules, "--prometheus-config", config);
    assertThat(run.exit()).isEqualTo(1);
    String file = rules.resolve("x.yml").toString();
    assertThat(run.out().lines().toList())
        .containsExactly(
            file
                + ": group g, alert Stalled: range window [15s] is shorter than four scrape intervals (4 x 5s = 20s, "
                + "scrape interval from "
                + config
                + "), so rate() sees too few samples and nothing after one missed "
                + "scrape; use [20s] or longer",
            file
                + ": group g, alert Stalled: for 5s is shorter than the evaluation interval 10s (from "
                + config
                + "), so the alert stays pending a whole evaluation anyway; set for to 10s or more, or remove it",
            rules
                + ": 2 finding(s) in 1 file(s), 2 rule(s); scrape interval 5s ("
                + config
                + "), evaluation interval 10s ("
                + config
                + ")");
  }

  @Test
  void theRepositorysRulesLintCleanOnTheLabsOneSecondClock() {
    CliRun run = lint("alert-rules", "--prometheus-config", "fixtures/lab/prometheus.yml");
    assertThat(run.exit()).as(run.describe()).isZero();
    assertThat(run.out())
        .startsWith("alert-rules: clean in 2 file(s), ")
        .contains("scrape interval 1s (fixtures/lab/prometheus.yml), evaluation interval 1s");
  }

  @Test
  void withoutTheLabConfigTheLabsRecordedInputsAreNotFollowed() {
    CliRun run = lint("alert-rules", "--scrape-interval", "1s", "--evaluation-interval", "1s");
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out())
        .contains(
            "alert-rules/lab-alerts.yml: group lab-alerts, alert CheckoutErrorBudgetBurn: "
                + "input series service:http_error_ratio:rate30s, service:http_error_ratio:rate5s have no absent() companion");
  }

  @Test
  void unreadableInputExitsTwoNamingFileFieldLineAndColumn() throws IOException {
    write(
        "a.yml",
        """
        groups:
          - name: g
            rules:
              - alert: A
                expr: up == 0
                for: soon
              - alert: B
                record: b
                expr: up
              - alert: C
                expr: rate(up[5m) > 0
                labelz: {}
        """);
    write("b.yaml", "groups:\n  - name: g\n    rules: [\n");
    CliRun run = lint(dir);
    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    String a = dir.resolve("a.yml").toString();
    // The embedded Prometheus's reader (RuleFileReader), in Prometheus's words.
    assertThat(run.err().lines().toList())
        .contains(
            a + ": /groups/0/rules/0/for: not a valid duration string: \"soon\" (line 6, column 9)",
            a
                + ": /groups/0/rules/1/record: group \"g\", rule 2, \"B\": only one of 'record' and 'alert' must be set "
                + "(line 8, column 9)",
            a
                + ": /groups/0/rules/2/labelz: unknown key \"labelz\"; expected one of record, alert, expr, for, "
                + "keep_firing_for, labels, annotations (line 12, column 9)",
            a
                + ": /groups/0/rules/2/expr: group \"g\", rule 3, \"C\": could not parse expression: 1:11: parse error: "
                + "unexpected \")\" in subquery or range, expected \":\" or \"]\" (line 11, column 9)");
    assertThat(run.err()).contains(dir.resolve("b.yaml") + ": /groups/0/rules: malformed YAML: ");
  }

  @Test
  void aMissingDirectoryOrConfigExitsTwo() throws IOException {
    assertThat(lint(dir.resolve("nope")).exit()).isEqualTo(2);
    assertThat(lint(dir).err())
        .contains(dir + ": /: no rule files (*.yml, *.yaml) in this directory");
    write("x.yml", "groups: []\n");
    CliRun badConfig = lint(dir, "--prometheus-config", dir.resolve("missing.yml"));
    assertThat(badConfig.exit()).isEqualTo(2);
    assertThat(badConfig.err()).contains("missing.yml: /: cannot read");
    assertThat(lint(dir, "--scrape-interval", "fast").exit()).isEqualTo(2);
    assertThat(lint(dir).exit()).isZero();
  }

  @Test
  void filesAndDirectoriesAreLintedAsOneSetAsPromtoolTakesThem() throws IOException {
    Path alerts =
        write(
            "alerts.yml",
            """
        groups:
          - name: orders
            rules:
              - alert: OrdersStalled
                expr: rate(orders_total[5m]) < 0.1
                for: 5m
                annotations:
                  runbook_url: https://runbooks.example.com/orders-stalled
        """);
    Path companions = Files.createDirectory(dir.resolve("companions"));
    Files.writeString(
        companions.resolve("absent.yaml"),
        "groups:\n  - name: absent\n    rules:\n" + COMPANION.indent(2));

    CliRun alone = lint(alerts);
    assertThat(alone.exit()).as(alone.describe()).isEqualTo(1);
    assertThat(alone.out())
        .startsWith(
            alerts
                + ": group orders, alert OrdersStalled: input series orders_total has"
                + " no absent() companion alert");

    CliRun both = lint(alerts, companions);
    assertThat(both.exit()).as(both.describe()).isZero();
    assertThat(both.out())
        .startsWith(alerts + " " + companions + ": clean in 2 file(s), 2 rule(s); ");

    CliRun twice = lint(alerts, alerts);
    assertThat(twice.out()).contains(": 1 finding(s) in 1 file(s), 1 rule(s); ");
  }

  @Test
  void aPathThatIsNeitherFileNorDirectoryIsNamed() {
    CliRun run = lint(dir.resolve("nope.yml"));
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err()).isEqualTo(dir.resolve("nope.yml") + ": /: no such file or directory\n");
  }
}
