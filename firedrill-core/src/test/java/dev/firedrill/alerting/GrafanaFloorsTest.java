package dev.firedrill.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Floors for Grafana-managed rules, whose {@code query} in Grafana's {@code
 * /api/prometheus/grafana/api/v1/rules} is the JSON array of the rule's queries and expressions.
 */
class GrafanaFloorsTest {

  private static final RuleBook BOOK =
      new RuleBook(List.of(), Map.of(), Duration.ofSeconds(15), Duration.ofSeconds(60));

  /** A data query A on a Prometheus data source, reduce B (last of A), threshold C (B > 0.05). */
  static final String PROMQL_RULE =
      "[{\"refId\":\"A\",\"queryType\":\"\",\"relativeTimeRange\":{\"from\":600,\"to\":0},"
          + "\"datasourceUid\":\"prom\",\"model\":{\"editorMode\":\"code\",\"expr\":"
          + "\"sum(rate(http_server_requests_total{code=~\\\"5..\\\"}[1m])) /"
          + " sum(rate(http_server_requests_total[1m]))\",\"instant\":true,\"intervalMs\":1000,"
          + "\"maxDataPoints\":43200,\"range\":false,\"refId\":\"A\"}},"
          + "{\"refId\":\"B\",\"queryType\":\"\",\"relativeTimeRange\":{\"from\":0,\"to\":0},"
          + "\"datasourceUid\":\"__expr__\",\"model\":{\"expression\":\"A\",\"reducer\":\"last\","
          + "\"refId\":\"B\",\"type\":\"reduce\"}},"
          + "{\"refId\":\"C\",\"queryType\":\"\",\"relativeTimeRange\":{\"from\":0,\"to\":0},"
          + "\"datasourceUid\":\"__expr__\",\"model\":{\"conditions\":[{\"evaluator\":"
          + "{\"params\":[0.05],\"type\":\"gt\"},\"operator\":{\"type\":\"and\"},\"query\":"
          + "{\"params\":[\"C\"]},\"reducer\":{\"params\":[],\"type\":\"last\"},\"type\":\"query\"}],"
          + "\"expression\":\"B\",\"refId\":\"C\",\"type\":\"threshold\"}}]";

  private static RuleBook.AlertRule rule(String query, Duration forDuration) {
    return new RuleBook.AlertRule(
        "Checkout error ratio high",
        query,
        forDuration,
        Duration.ofSeconds(60),
        Map.of(),
        Map.of());
  }

  @Test
  void aPromqlQueryReducedAndComparedHasThePrometheusRulesFloor() {
    Floor grafana = Floors.of(rule(PROMQL_RULE, Duration.ofMinutes(2)), BOOK);
    Floor prometheus =
        Floors.of(
            rule(
                "(sum(rate(http_server_requests_total{code=~\"5..\"}[1m])) /"
                    + " sum(rate(http_server_requests_total[1m]))) > 0.05",
                Duration.ofMinutes(2)),
            BOOK);

    assertThat(grafana).isEqualTo(prometheus);
    assertThat(grafana.value()).isEqualTo(Duration.ofSeconds(123));
  }

  @Test
  void aRuleOverAnotherDataSourceHasItsIntervalPlusForAndSaysWhy() {
    String loki =
        "[{\"refId\":\"A\",\"datasourceUid\":\"loki\",\"model\":{\"queryType\":\"range\"}},"
            + "{\"refId\":\"C\",\"datasourceUid\":\"__expr__\",\"model\":{\"type\":\"threshold\","
            + "\"expression\":\"A\",\"conditions\":[{\"evaluator\":{\"params\":[3],\"type\":\"gt\"}}]}}]";

    assertThat(Floors.of(rule(loki, Duration.ofMinutes(5)), BOOK).text())
        .isEqualTo(
            "360.0s (Grafana-managed rule: interval 1m plus for: 5m, as it is not one PromQL data"
                + " query (it has 1 data query without a PromQL expr))");
  }

  @Test
  void aMathConditionHasItsIntervalPlusFor() {
    String math = PROMQL_RULE.replace("\"type\":\"threshold\"", "\"type\":\"math\"");

    assertThat(Floors.of(rule(math, Duration.ZERO), BOOK).text())
        .isEqualTo(
            "60.0s (Grafana-managed rule: interval 1m plus for: 0s, as its condition is not one gt"
                + " or lt threshold (it has a math expression))");
  }
}
