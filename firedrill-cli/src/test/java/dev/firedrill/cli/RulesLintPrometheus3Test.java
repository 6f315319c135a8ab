package dev.firedrill.cli;

import static dev.firedrill.cli.RulesLintCommandTest.lint;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** rules lint on Prometheus 3 rule files, PrometheusRule objects, Lists and multi-document YAML. */
class RulesLintPrometheus3Test {

  static final Path FIXTURES = Path.of("fixtures/testdata/rules/prometheus3");

  @TempDir Path dir;

  private Path copy(String fixture) throws IOException {
    return Files.copy(FIXTURES.resolve(fixture), dir.resolve(fixture));
  }

  private List<String> findings(CliRun run) {
    return run.out().lines().filter(l -> l.startsWith(dir.toString() + "/")).toList();
  }

  @Test
  void utf8NamesBareNumberRangesAndTheNewWarnings() throws IOException {
    copy("utf8-and-bare-numbers.yml");
    CliRun run = lint(dir);
    assertThat(run.exit()).as(run.describe()).isEqualTo(1);
    String at =
        dir.resolve("utf8-and-bare-numbers.yml")
            + ": group checkout-utf8, alert CheckoutSlowRequests: ";
    assertThat(findings(run))
        .containsExactly(
            at
                + "input series http.server.duration_bucket, http.server.duration_count have no absent() companion alerts, "
                + "so this alert goes silent when they stop; add alerts on absent({\"http.server.duration_bucket\"}), "
                + "absent({\"http.server.duration_count\"}), each with a for",
            at
                + "range window [1m:1m] is shorter than four scrape intervals (4 x 1m = 4m, scrape interval from "
                + "Prometheus's default), so rate() sees too few samples and nothing after one missed scrape; use [4m] or longer",
            at
                + "le=\"1\" matches nothing on Prometheus 3, which normalises the le label of classic histograms and the "
                + "quantile label of summaries to floats (le=\"1.0\"); write le=~\"1(\\\\.0)?\" to match on 2.x and 3.x alike",
            at
                + "subquery [1m:1m] has a range not longer than its resolution, so it holds one point per evaluation and "
                + "the function over it sees a single sample; make the range several times the resolution");
  }

  @Test
  void experimentalSyntaxIsReadAndHoltWintersNamed() throws IOException {
    copy("experimental.yml");
    CliRun run = lint(dir);
    assertThat(run.exit()).as(run.describe()).isEqualTo(1);
    String at = dir.resolve("experimental.yml") + ": group checkout-experimental, alert ";
    // [5m * 2] is 10m and [(1h + 5m) / 13] 5m: no short-window finding; anchored, smoothed,
    // fill_right
    // and step() are no metric names; [step() * 4] has no value in a rule and is left alone.
    assertThat(findings(run))
        .containsExactly(
            at
                + "CheckoutLatencyForecast: holt_winters is gone from Prometheus 3: 3.0 renamed it "
                + "double_exponential_smoothing and put it behind --enable-feature=promql-experimental-functions, so "
                + "Prometheus 3 refuses this rule; on 3.x rename it and enable that flag",
            at
                + "CheckoutSpikes: range window [10s:] is shorter than four scrape intervals (4 x 1m = 4m, scrape interval "
                + "from Prometheus's default), so rate() sees too few samples and nothing after one missed scrape; use [4m] "
                + "or longer",
            at
                + "CheckoutSpikes: subquery [10s:] has no resolution, so it takes the global evaluation interval 1m (from "
                + "Prometheus's default), and its range is not longer than that: it holds one point per evaluation; give "
                + "it a resolution shorter than its range");
  }

  @Test
  void prometheusRuleObjectsListsAndDocumentsAreNamedInFindings() throws IOException {
    copy("prometheus-rules.yaml");
    CliRun run = lint(dir);
    assertThat(run.exit()).as(run.describe()).isEqualTo(1);
    String file = dir.resolve("prometheus-rules.yaml").toString();
    String runbook =
        ": no runbook_url annotation; add annotations.runbook_url pointing at the runbook";
    assertThat(findings(run))
        .containsExactly(
            file + " (monitoring/checkout-rules): group checkout, alert CheckoutDown" + runbook,
            file + " (payments/payments-rules): group payments, alert PaymentsDown" + runbook,
            file + " (payments/ledger-rules): group ledger, alert LedgerDown" + runbook,
            file + " (document 4): group plain, alert PlainDown" + runbook);
    assertThat(run.out())
        .contains(
            dir
                + ": 4 finding(s) in 1 file(s), 7 rule(s); scrape interval 1m (Prometheus's "
                + "default), evaluation interval 1m (Prometheus's default)");
  }

  @Test
  void anObjectOfAnotherKindIsRefusedWithItsPointer() throws IOException {
    Files.writeString(
        dir.resolve("cm.yaml"),
        "groups: []\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n");
    CliRun run = lint(dir);
    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.err())
        .contains(
            dir.resolve("cm.yaml")
                + ": /kind: expected kind PrometheusRule (apiVersion "
                + "monitoring.coreos.com/v1) or List, found ConfigMap (line 4, column 1)");
  }
}
