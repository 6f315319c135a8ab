package dev.firedrill.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.testing.StubHttpServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * alerts(), rules(), config() against a stub with Prometheus 3.x shapes (2.x runs in
 * RealAlertingStackTest).
 */
class PrometheusAlertsApiTest {

  private StubHttpServer stub;
  private String server;
  private HttpPrometheusClient client;

  @BeforeEach
  void start() {
    stub = StubHttpServer.start();
    server = "http://127.0.0.1:" + stub.port();
    client =
        new HttpPrometheusClient(stub.url("/prom"), Duration.ofSeconds(5), Optional.of("tok-xyz"));
  }

  @AfterEach
  void stop() {
    stub.close();
  }

  @Test
  void alertsAsPrometheus3WritesThem() throws Exception {
    stub.respondJson(
        200,
        """
        {"status":"success","data":{"alerts":[
          {"labels":{"alertname":"A","team":"payments"},"annotations":{"summary":"s"},"state":"firing",
           "activeAt":"2024-05-14T09:12:03.786629297Z","keepFiringSince":"2024-05-14T09:13:00Z","value":"1e+00"},
          {"labels":{"alertname":"B"},"annotations":{},"state":"pending","activeAt":"2024-05-14T09:12:04Z","value":"NaN"}]}}
        """);
    assertThat(client.alerts())
        .containsExactly(
            new PrometheusAlert(
                Map.of("alertname", "A", "team", "payments"),
                Map.of("summary", "s"),
                "firing",
                Optional.of(Instant.parse("2024-05-14T09:12:03.786629297Z")),
                "1e+00"),
            new PrometheusAlert(
                Map.of("alertname", "B"),
                Map.of(),
                "pending",
                Optional.of(Instant.parse("2024-05-14T09:12:04Z")),
                "NaN"));
    assertThat(stub.lastRequest().method()).isEqualTo("GET");
    assertThat(stub.lastRequest().path()).isEqualTo("/prom/api/v1/alerts");
    assertThat(stub.lastRequest().headers()).containsEntry("authorization", "Bearer tok-xyz");
  }

  @Test
  void rulesWithPrometheus3Fields() throws Exception {
    stub.respondJson(
        200,
        """
        {"status":"success","data":{"groups":[{"name":"slo","file":"/etc/rules.yml","interval":30,"limit":0,
          "evaluationTime":0.0012,"lastEvaluation":"2024-05-14T09:12:00Z","rules":[
          {"state":"inactive","name":"PaymentsBurn","query":"x > 14.4","duration":120.5,"keepFiringFor":60,
           "labels":{"severity":"page"},"annotations":{"runbook_url":"https://r"},"alerts":[],"health":"unknown",
           "evaluationTime":0,"lastEvaluation":"0001-01-01T00:00:00Z","type":"alerting"},
          {"name":"job:errors:rate5m","query":"sum(rate(e[5m]))","health":"err","lastError":"bad\\nthing",
           "evaluationTime":0.001,"lastEvaluation":"2024-05-14T09:12:00.5Z","type":"recording"}]}],
          "groupNextToken":""}}
        """);
    assertThat(client.rules())
        .containsExactly(
            new RuleGroup(
                "slo",
                "/etc/rules.yml",
                Duration.ofSeconds(30),
                List.of(
                    new Rule.Alerting(
                        "PaymentsBurn",
                        "x > 14.4",
                        Duration.ofMillis(120_500),
                        Map.of("severity", "page"),
                        Map.of("runbook_url", "https://r"),
                        "unknown",
                        Optional.empty(),
                        Optional.empty(),
                        "inactive",
                        List.of()),
                    new Rule.Recording(
                        "job:errors:rate5m",
                        "sum(rate(e[5m]))",
                        Map.of(),
                        "err",
                        Optional.of("bad thing"),
                        Optional.of(Instant.parse("2024-05-14T09:12:00.5Z"))))));
  }

  @Test
  void configAndItsIntervals() throws Exception {
    stub.respondJson(
        200,
        """
        {"status":"success","data":{"yaml":"global:\\n  scrape_interval: 15s\\n  evaluation_interval: 30s\\nscrape_configs:\\n- job_name: api\\n  scrape_interval: 5s\\n- job_name: node\\n"}}
        """);
    PrometheusConfig config = client.parsedConfig();
    assertThat(config)
        .isEqualTo(
            new PrometheusConfig(
                Duration.ofSeconds(15),
                Duration.ofSeconds(30),
                Duration.ZERO,
                Map.of("api", Duration.ofSeconds(5), "node", Duration.ofSeconds(15))));
    assertThat(config.scrapeInterval("unknown")).isEqualTo(Duration.ofSeconds(15));
    assertThat(PrometheusConfig.parse("scrape_configs: []\n"))
        .isEqualTo(
            new PrometheusConfig(
                Duration.ofMinutes(1), Duration.ofMinutes(1), Duration.ZERO, Map.of()));
    assertThatThrownBy(() -> PrometheusConfig.parse("global:\n  scrape_interval: soon\n"))
        .hasMessage(
            "Prometheus config: global.scrape_interval: expected a duration above zero such as 15s, 1m30s or 1h,"
                + " found \"soon\"");
  }

  @Test
  void failuresNameTheRequest() {
    stub.respondJson(
        200,
        "{\"status\":\"success\",\"data\":{\"groups\":[{\"name\":\"g\",\"rules\":[{\"type\":\"weird\",\"name\":\"n\",\"query\":\"q\"}]}]}}");
    assertThatThrownBy(client::rules)
        .isInstanceOf(PrometheusException.class)
        .hasMessage(
            "Prometheus at "
                + server
                + "/prom answered HTTP 200 to GET /api/v1/rules with an unexpected response: \"data.groups[0].rules[0].type\" is \"weird\" (expected alerting or recording)");

    stub.respondJson(
        503,
        "{\"status\":\"error\",\"errorType\":\"unavailable\",\"error\":\"rule manager not ready tok-xyz\"}");
    assertThatThrownBy(client::alerts)
        .hasMessage(
            "Prometheus at "
                + server
                + "/prom answered HTTP 503 to GET /api/v1/alerts: unavailable: rule manager not ready <redacted>");

    stub.respondJson(200, "{\"status\":\"success\",\"data\":{}}");
    assertThatThrownBy(client::config)
        .hasMessage(
            "Prometheus at "
                + server
                + "/prom answered HTTP 200 to GET /api/v1/status/config with an unexpected response: \"data.yaml\" is missing (expected a string)");
  }
}
