package dev.firedrill.embedded.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.embedded.storage.MemoryStorage;
import dev.firedrill.promql.eval.Engine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class RuleFileLoaderTest {

  private final RuleFileLoader loader = RuleFileLoader.withPromql();

  @Test
  void loadsTheRepositorysAlertAndRecordingRules() throws IOException {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> rules = Files.list(Path.of("alert-rules"))) {
      rules.filter(p -> p.toString().endsWith(".yml")).sorted().forEach(files::add);
    }
    files.add(Path.of("fixtures/lab/recording-rules.yml"));
    List<RuleGroupSpec> groups = loader.load(files);
    assertThat(groups)
        .extracting(RuleGroupSpec::name)
        .containsExactly(
            "checkout-slo-availability",
            "checkout-slo-latency",
            "checkout-slo-alerts",
            "lab-alerts",
            "lab-sli");
    RuleGroupSpec lab = groups.get(3);
    assertThat(lab.intervalMs()).isEqualTo(1000);
    assertThat(lab.file()).isEqualTo(Path.of("alert-rules/lab-alerts.yml").toString());
    RuleSpec.Alerting latency = (RuleSpec.Alerting) lab.rules().get(1);
    assertThat(latency.name()).isEqualTo("CheckoutLatencyHigh");
    assertThat(latency.forMs()).isEqualTo(10_000);
    assertThat(latency.query())
        .isEqualTo("service:http_request_duration_seconds:p99_30s{service=\"checkout\"} > 0.5");
    assertThat(latency.labels()).isEqualTo(Map.of("severity", "ticket", "team", "checkout"));
    assertThat(groups.get(0).intervalMs()).as("no interval: the global one").isZero();
    RuleSpec.Recording ratio = (RuleSpec.Recording) groups.get(4).rules().get(2);
    assertThat(ratio.query())
        .isEqualTo("service:http_errors:rate5s / service:http_requests:rate5s");
  }

  @Test
  void everyProblemNamesFilePointerLineAndColumnInPrometheussWords() {
    String yaml =
        """
        groups:
          - name: g
            rules:
              - record: a:b
                expr: sum(rate(x[5m])
              - alert: X
                expr: up == 0
                for: 5x
              - record: bad name
                expr: up
                for: 1m
              - alert: Y
                expr: up
                annotations:
                  summary: '{{ humanize $valu }}'
          - name: g
            query_offset: 1m
        """;
    assertThatThrownBy(() -> loader.parse("bad.yml", yaml))
        .isInstanceOf(RuleFileException.class)
        .hasMessage(
            String.join(
                "; ",
                "bad.yml: /groups/0/rules/0/expr: group \"g\", rule 1, \"a:b\": could not parse expression: 1:16: parse"
                    + " error: unclosed left parenthesis (line 5, column 9)",
                "bad.yml: /groups/0/rules/1/for: not a valid duration string: \"5x\" (line 8, column 9)",
                "bad.yml: /groups/0/rules/2/for: group \"g\", rule 3, \"bad name\": invalid field 'for' in recording rule"
                    + " (line 11, column 9)",
                "bad.yml: /groups/0/rules/2/record: group \"g\", rule 3, \"bad name\": invalid recording rule name: bad"
                    + " name (line 9, column 9)",
                "bad.yml: /groups/0/rules/3/annotations/summary: group \"g\", rule 4, \"Y\": annotation \"summary\":"
                    + " template: __alert_Y:1: undefined variable \"$valu\" (line 15, column 11)",
                "bad.yml: /groups/1/query_offset: unknown key \"query_offset\"; expected one of name, interval, limit,"
                    + " rules (line 17, column 5)",
                "bad.yml: /groups/1/name: groupname: \"g\" is repeated in the same file (line 16, column 5)"));
  }

  @Test
  void unknownRuleKeysAndMissingPartsAreRefused() {
    String yaml =
        """
        groups:
          - name: g
            rules:
              - alert: A
                expr: up
                severity: page
              - expr: up
              - record: r
                alert: R
                expr: up
              - alert: B
        """;
    assertThatThrownBy(() -> loader.parse("r.yml", yaml))
        .isInstanceOf(RuleFileException.class)
        .hasMessage(
            String.join(
                "; ",
                "r.yml: /groups/0/rules/0/severity: unknown key \"severity\"; expected one of record, alert, expr, for,"
                    + " keep_firing_for, labels, annotations (line 6, column 9)",
                "r.yml: /groups/0/rules/1: group \"g\", rule 2, \"\": one of 'record' or 'alert' must be set"
                    + " (line 7, column 9)",
                "r.yml: /groups/0/rules/2/record: group \"g\", rule 3, \"R\": only one of 'record' and 'alert' must be"
                    + " set (line 8, column 9)",
                "r.yml: /groups/0/rules/3/expr: group \"g\", rule 4, \"B\": field 'expr' must be set in rule"
                    + " (line 11, column 9)"));
  }

  @Test
  void malformedYamlAndUnreadableFilesAreProblemsToo() {
    assertThatThrownBy(() -> loader.parse("m.yml", "groups:\n  - name: [unclosed\n"))
        .isInstanceOf(RuleFileException.class)
        .hasMessageStartingWith("m.yml: /groups/0/name: malformed YAML: ");
    assertThatThrownBy(() -> loader.load(List.of(Path.of("no/such/rules.yml"))))
        .isInstanceOf(RuleFileException.class)
        .hasMessage("no/such/rules.yml: /: cannot read: no such file");
  }

  @Test
  void prometheusRuleObjectsListsAndDocumentsAreReadAsTheOperatorHandsThemOver()
      throws IOException {
    List<RuleGroupSpec> groups =
        loader.load(List.of(Path.of("fixtures/testdata/rules/prometheus3/prometheus-rules.yaml")));
    assertThat(groups)
        .extracting(RuleGroupSpec::name)
        .containsExactly("checkout", "payments", "ledger", "plain");
    assertThat(groups).extracting(g -> g.rules().size()).containsExactly(2, 1, 2, 2);
    assertThat(groups.get(2).rules().get(1)).isInstanceOf(RuleSpec.Recording.class);
    String yaml =
        "apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata: {name: x}\nspec:\n"
            + "  groups:\n    - name: g\n      rules:\n        - alert: A\n          expr: up ==\n";
    assertThatThrownBy(() -> loader.parse("pr.yml", yaml))
        .isInstanceOf(RuleFileException.class)
        .hasMessage(
            "pr.yml: /spec/groups/0/rules/0/expr: group \"g\", rule 1, \"A\": could not parse expression: 1:6: "
                + "parse error: unexpected end of input (line 9, column 11)");
  }

  @Test
  void anEngineInPrometheus3ModeReadsPrometheus3Rules() {
    Engine engine = new Engine(new MemoryStorage(), Engine.Options.defaults());
    String yaml =
        "groups:\n  - name: g\n    rules:\n      - record: r\n        expr: rate(x[5m * 2])\n";

    List<RuleGroupSpec> groups = RuleFileLoader.readingAs(engine).parse("r3.yml", yaml);

    assertThat(groups.get(0).rules()).hasSize(1);
  }

  @Test
  void prometheus3PromqlIsNamedAsWhatMode2DoesNotEvaluate() {
    String yaml =
        "groups:\n  - name: g\n    rules:\n      - record: r\n        expr: rate(x[5m * 2])\n";
    assertThatThrownBy(() -> loader.parse("r3.yml", yaml))
        .isInstanceOf(RuleFileException.class)
        .hasMessage(
            "r3.yml: /groups/0/rules/0/expr: group \"g\", rule 1, \"r\": could not parse expression: 1:11: "
                + "parse error: unexpected <op:*> in subquery or range, expected \":\" or \"]\" (this is Prometheus 3 "
                + "PromQL, which the embedded Prometheus in Prometheus 2 mode does not evaluate; --compat 3 reads it)"
                + " (line 5, column 9)");
  }

  @Test
  void anEmptyFileHasNoGroups() {
    assertThat(loader.parse("empty.yml", "")).isEmpty();
    assertThat(loader.parse("empty.yml", "groups: []\n")).isEmpty();
  }

  @Test
  void keepFiringForAndLimitAreRead() {
    List<RuleGroupSpec> groups =
        loader.parse(
            "k.yml",
            """
        groups:
          - name: g
            interval: 30s
            limit: 5
            rules:
              - alert: A
                expr: up == 0
                for: 1m
                keep_firing_for: 2m30s
        """);
    RuleSpec.Alerting a = (RuleSpec.Alerting) groups.get(0).rules().get(0);
    assertThat(groups.get(0).limit()).isEqualTo(5);
    assertThat(groups.get(0).intervalMs()).isEqualTo(30_000);
    assertThat(a.forMs()).isEqualTo(60_000);
    assertThat(a.keepFiringForMs()).isEqualTo(150_000);
  }
}
