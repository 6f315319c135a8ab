package dev.firedrill.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.firedrill.alerting.AlertStack;
import dev.firedrill.alerting.Detection;
import dev.firedrill.alerting.Floors;
import dev.firedrill.alerting.RuleBook;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.prometheus.QueryResult;
import dev.firedrill.testing.MinimalExperiment;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus-API backends that cannot run here, faked with the response shapes of their
 * documentation: Grafana Mimir (a {@code /prometheus} prefix, a tenant header, basic auth, no
 * {@code /status/config}), Thanos Query (no {@code /status/config}), Thanos Ruler as {@code
 * rules_url}, and VictoriaMetrics without {@code -vmalert.proxyURL}. Each reaches the clients
 * through the experiment file and {@link Wiring}, as a drill does.
 */
class BackendsTest {

  private static final String PASSWORD = "pa55-s3cr3t-" + System.nanoTime();
  private static final Map<String, String> ENV = Map.of("MIMIR_PASSWORD", PASSWORD);
  private static final String BASIC =
      "Basic " + Base64.getEncoder().encodeToString(("drill:" + PASSWORD).getBytes());

  /** Prometheus's /api/v1/rules shape; Thanos adds partialResponseStrategy to each group. */
  private static final String RULES =
      """
      {"status":"success","data":{"groups":[{"name":"checkout","file":"checkout.yml","interval":30,
        "partialResponseStrategy":"ABORT","limit":0,"evaluationTime":0.001,
        "lastEvaluation":"2026-01-01T00:00:00Z",
        "rules":[
          {"state":"inactive","name":"CheckoutErrors","query":"job:errors:ratio5m > 0.02","duration":60,
           "keepFiringFor":0,"labels":{"severity":"page"},"annotations":{"summary":"checkout fails"},"alerts":[],
           "health":"ok","evaluationTime":0.001,"lastEvaluation":"2026-01-01T00:00:00Z","type":"alerting"},
          {"name":"job:errors:ratio5m","query":"sum(rate(errors_total[5m])) / sum(rate(requests_total[5m]))",
           "labels":{},"health":"ok","evaluationTime":0.001,"lastEvaluation":"2026-01-01T00:00:00Z",
           "type":"recording"}]}]}}
      """;

  private static final String NO_GROUPS = "{\"status\":\"success\",\"data\":{\"groups\":[]}}";
  private static final String ALERTS =
      """
      {"status":"success","data":{"alerts":[{"labels":{"alertname":"CheckoutErrors","severity":"page"},
        "annotations":{"summary":"checkout fails"},"state":"firing","activeAt":"2026-01-01T00:01:00Z",
        "value":"5e-02","partialResponseStrategy":"ABORT"}]}}
      """;
  private static final String VECTOR =
      """
      {"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1767225600,"1"]}]}}
      """;

  private WireMockServer backend;
  private WireMockServer ruler;

  @BeforeEach
  void start() {
    backend = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());
    ruler = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());
    backend.start();
    ruler.start();
  }

  @AfterEach
  void stop() {
    backend.stop();
    ruler.stop();
  }

  /** The minimal experiment against {@code prometheus}, expecting the rule the backends serve. */
  private static Experiment experiment(String prometheus) {
    return MinimalExperiment.load(
        MinimalExperiment.with(
            prometheus, "hypothesis:\n  alerts:\n    - alert: CheckoutErrors\n      within: 5m\n"));
  }

  private String url(WireMockServer server, String path) {
    return "http://127.0.0.1:" + server.port() + path;
  }

  /**
   * Mimir answers 401 "no org id" without the tenant header, and 404 for paths it does not serve.
   */
  private void mimir() {
    backend.stubFor(
        get(anyUrl())
            .atPriority(10)
            .willReturn(aResponse().withStatus(404).withBody("404 page not found\n")));
    backend.stubFor(
        post(anyUrl())
            .atPriority(9)
            .withHeader("X-Scope-OrgID", absent())
            .willReturn(aResponse().withStatus(401).withBody("no org id\n")));
    backend.stubFor(
        get(anyUrl())
            .atPriority(9)
            .withHeader("X-Scope-OrgID", absent())
            .willReturn(aResponse().withStatus(401).withBody("no org id\n")));
    backend.stubFor(
        get(urlEqualTo("/prometheus/api/v1/rules"))
            .atPriority(1)
            .withHeader("X-Scope-OrgID", equalTo("tenant-1"))
            .withBasicAuth("drill", PASSWORD)
            .willReturn(
                aResponse().withHeader("Content-Type", "application/json").withBody(RULES)));
    backend.stubFor(
        post(urlPathEqualTo("/prometheus/api/v1/query"))
            .atPriority(1)
            .withHeader("X-Scope-OrgID", equalTo("tenant-1"))
            .withBasicAuth("drill", PASSWORD)
            .willReturn(
                aResponse().withHeader("Content-Type", "application/json").withBody(VECTOR)));
  }

  @Test
  void mimirThroughItsPrefixWithTheTenantHeaderAndBasicAuthTakesTheIntervalsFromTheExperiment()
      throws Exception {
    mimir();
    Experiment experiment =
        experiment(
            """
        prometheus:
          url: %s
          headers: {X-Scope-OrgID: tenant-1}
          basic_auth: {username: drill, password_env: MIMIR_PASSWORD}
          scrape_interval: 15s
          evaluation_interval: 30s
        """
                .formatted(url(backend, "/prometheus")));

    QueryResult result = Wiring.prometheus(experiment, ENV).query("up");
    RuleBook book = Wiring.alertStack(experiment, ENV, Optional.empty(), Optional.empty()).rules();

    assertThat(result).isInstanceOf(QueryResult.Vector.class);
    assertThat(book.alert("CheckoutErrors")).isPresent();
    assertThat(book.scrapeInterval()).isEqualTo(Duration.ofSeconds(15));
    assertThat(book.evaluationInterval()).isEqualTo(Duration.ofSeconds(30));
    assertThat(book.intervalsText())
        .isEqualTo(
            "intervals: scrape 15s, evaluation 30s, query offset 0s, from the"
                + " experiment file, the server has no /api/v1/status/config (Prometheus at "
                + url(backend, "/prometheus")
                + " answered HTTP 404 to GET /api/v1/status/config: 404 page not found)");
    backend.verify(
        getRequestedFor(urlEqualTo("/prometheus/api/v1/status/config"))
            .withHeader("X-Scope-OrgID", equalTo("tenant-1"))
            .withHeader("Authorization", equalTo(BASIC)));
  }

  @Test
  void mimirWithoutTheTenantHeaderSaysSoAndNeverShowsThePassword() throws Exception {
    mimir();
    Experiment experiment =
        experiment(
            """
        prometheus:
          url: %s
          basic_auth: {username: drill, password_env: MIMIR_PASSWORD}
        """
                .formatted(url(backend, "/prometheus")));

    Detection detection =
        Wiring.detection(experiment, Wiring.prometheus(experiment, ENV), ENV, Optional.empty())
            .orElseThrow();
    Optional<Detection.PreflightProblem> problem = detection.preflight();

    assertThat(problem)
        .map(Detection.PreflightProblem::reason)
        .contains(
            "cannot read the alerts before injection:"
                + " Prometheus at "
                + url(backend, "/prometheus")
                + " answered HTTP 401 to GET /api/v1/rules: no org id");
    assertThat(problem.orElseThrow().reason()).doesNotContain(PASSWORD, BASIC.substring(6));
  }

  @Test
  void thanosQueryWithoutStatusConfigUsesTheExperimentsIntervalsAndQueryOffsetInTheFloor()
      throws Exception {
    backend.stubFor(
        get(urlEqualTo("/api/v1/status/config"))
            .willReturn(aResponse().withStatus(404).withBody("404 page not found\n")));
    backend.stubFor(
        get(urlEqualTo("/api/v1/rules"))
            .willReturn(
                aResponse().withHeader("Content-Type", "application/json").withBody(RULES)));
    Experiment experiment =
        experiment(
            """
        prometheus:
          url: %s
          scrape_interval: 30s
          evaluation_interval: 30s
          query_offset: 1m
        """
                .formatted(url(backend, "")));

    RuleBook book =
        Wiring.alertStack(experiment, Map.of(), Optional.empty(), Optional.empty()).rules();

    assertThat(book.queryOffset()).isEqualTo(Duration.ofMinutes(1));
    assertThat(book.intervalsSource())
        .startsWith("from the experiment file, the server has no /api/v1/status/config");
    // 0.02 of a 5m window (6s) then for: 1m, plus the rules' query offset
    assertThat(Floors.of(book.alert("CheckoutErrors").orElseThrow(), book).text())
        .isEqualTo(
            "126.0s (for: 1m, after"
                + " the 5m window: at a 100% error ratio, 0.02 of it needs 6.0s of data, plus query_offset 1m)");
  }

  @Test
  void aServerThatPublishesItsConfigIsBelievedOverTheExperiment() throws Exception {
    backend.stubFor(
        get(urlEqualTo("/api/v1/status/config"))
            .willReturn(
                aResponse()
                    .withHeader("Content-Type", "application/json")
                    .withBody(
                        "{\"status\":\"success\",\"data\":{\"yaml\":"
                            + "\"global:\\n  scrape_interval: 5s\\n  evaluation_interval: 10s\\n  rule_query_offset: 20s\\n\"}}")));
    backend.stubFor(
        get(urlEqualTo("/api/v1/rules"))
            .willReturn(
                aResponse().withHeader("Content-Type", "application/json").withBody(RULES)));
    Experiment experiment =
        experiment("prometheus:\n  url: " + url(backend, "") + "\n  scrape_interval: 1m\n");

    RuleBook book =
        Wiring.alertStack(experiment, Map.of(), Optional.empty(), Optional.empty()).rules();

    assertThat(book.intervalsText())
        .isEqualTo(
            "intervals: scrape 5s, evaluation 10s, query offset 20s, from the"
                + " server's /api/v1/status/config");
  }

  @Test
  void victoriaMetricsScrapeConfigLeavesTheRulerIntervalsToTheExperiment() throws Exception {
    // victoria-metrics -promscrape.config re-serves its scrape config: no evaluation_interval, no
    // rule_query_offset.
    backend.stubFor(
        get(urlEqualTo("/api/v1/status/config"))
            .willReturn(
                aResponse()
                    .withHeader("Content-Type", "application/json")
                    .withBody(
                        "{\"status\":\"success\",\"data\":{\"yaml\":"
                            + "\"global:\\n  scrape_interval: 1s\\nscrape_configs:\\n- job_name: payments\\n\"}}")));
    backend.stubFor(
        get(urlEqualTo("/api/v1/rules"))
            .willReturn(
                aResponse().withHeader("Content-Type", "application/json").withBody(RULES)));
    Experiment experiment =
        experiment(
            "prometheus:\n  url: "
                + url(backend, "")
                + "\n  scrape_interval: 1m\n"
                + "  evaluation_interval: 1s\n  query_offset: 30s\n");

    RuleBook book =
        Wiring.alertStack(experiment, Map.of(), Optional.empty(), Optional.empty()).rules();

    assertThat(book.intervalsText())
        .isEqualTo(
            "intervals: scrape 1s, evaluation 1s, query offset 30s, from the"
                + " server's /api/v1/status/config, evaluation interval and query offset from the experiment file (the"
                + " server's config does not state them)");
  }

  @Test
  void anEmptyYamlIsNoConfigEither() throws Exception {
    backend.stubFor(
        get(urlEqualTo("/api/v1/status/config"))
            .willReturn(
                aResponse()
                    .withHeader("Content-Type", "application/json")
                    .withBody("{\"status\":\"success\",\"data\":{\"yaml\":\"\"}}")));
    backend.stubFor(
        get(urlEqualTo("/api/v1/rules"))
            .willReturn(
                aResponse().withHeader("Content-Type", "application/json").withBody(RULES)));
    Experiment experiment = experiment("prometheus:\n  url: " + url(backend, "") + "\n");

    RuleBook book =
        Wiring.alertStack(experiment, Map.of(), Optional.empty(), Optional.empty()).rules();

    assertThat(book.intervalsText())
        .isEqualTo(
            "intervals: scrape 1m, evaluation 1m, query offset 0s, from the"
                + " experiment file, the server has no /api/v1/status/config (it answered an empty yaml)");
  }

  @Test
  void thanosRulerAsRulesUrlIsWhereRulesAndAlertsAreRead() throws Exception {
    backend.stubFor(
        get(urlEqualTo("/api/v1/status/config"))
            .willReturn(aResponse().withStatus(404).withBody("404 page not found\n")));
    ruler.stubFor(
        get(urlEqualTo("/api/v1/rules"))
            .willReturn(
                aResponse().withHeader("Content-Type", "application/json").withBody(RULES)));
    ruler.stubFor(
        get(urlEqualTo("/api/v1/alerts"))
            .willReturn(
                aResponse().withHeader("Content-Type", "application/json").withBody(ALERTS)));
    Experiment experiment =
        experiment(
            """
        prometheus:
          url: %s
          rules_url: %s
          headers: {X-Scope-OrgID: tenant-1}
        """
                .formatted(url(backend, ""), url(ruler, "")));

    AlertStack stack = Wiring.alertStack(experiment, Map.of(), Optional.empty(), Optional.empty());

    assertThat(stack.rules().alert("CheckoutErrors")).isPresent();
    assertThat(stack.alerts())
        .singleElement()
        .satisfies(alert -> assertThat(alert.state()).isEqualTo("firing"));
    ruler.verify(
        getRequestedFor(urlEqualTo("/api/v1/rules"))
            .withHeader("X-Scope-OrgID", equalTo("tenant-1")));
    backend.verify(0, getRequestedFor(urlEqualTo("/api/v1/rules")));
    backend.verify(0, getRequestedFor(urlEqualTo("/api/v1/alerts")));
  }

  @Test
  void victoriaMetricsWithoutVmalertProxyNamesTheFlagInsteadOfAMissingRule() throws Exception {
    backend.stubFor(
        get(urlEqualTo("/api/v1/rules"))
            .willReturn(
                aResponse().withHeader("Content-Type", "application/json").withBody(NO_GROUPS)));
    backend.stubFor(
        get(urlEqualTo("/vmalert/api/v1/rules"))
            .willReturn(
                aResponse()
                    .withStatus(400)
                    .withHeader("Content-Type", "application/json")
                    .withBody(
                        "{\"status\":\"error\",\"msg\":\"for accessing vmalert flag '-vmalert.proxyURL' must be configured\"}")));
    Experiment experiment = experiment("prometheus:\n  url: " + url(backend, "") + "\n");

    Detection detection =
        Wiring.detection(
                experiment, Wiring.prometheus(experiment, Map.of()), Map.of(), Optional.empty())
            .orElseThrow();

    assertThat(detection.preflight())
        .contains(
            new Detection.PreflightProblem(
                true,
                "hypothesis.alerts names"
                    + " CheckoutErrors, but GET /api/v1/rules answered no rule group at all; VictoriaMetrics at "
                    + url(backend, "")
                    + " proxies no vmalert, so it lists no rules: start it with -vmalert.proxyURL set to vmalert's URL, or set"
                    + " prometheus.rules_url to vmalert"));
  }

  @Test
  void anyOtherEmptyRuleListPointsToRulesUrl() throws Exception {
    backend.stubFor(
        get(urlEqualTo("/api/v1/rules"))
            .willReturn(
                aResponse().withHeader("Content-Type", "application/json").withBody(NO_GROUPS)));
    backend.stubFor(
        get(urlEqualTo("/vmalert/api/v1/rules")).willReturn(aResponse().withStatus(404)));
    Experiment experiment = experiment("prometheus:\n  url: " + url(backend, "") + "\n");

    Detection detection =
        Wiring.detection(
                experiment, Wiring.prometheus(experiment, Map.of()), Map.of(), Optional.empty())
            .orElseThrow();

    assertThat(detection.preflight())
        .contains(
            new Detection.PreflightProblem(
                true,
                "hypothesis.alerts names"
                    + " CheckoutErrors, but GET /api/v1/rules answered no rule group at all; the server evaluates no rules, or"
                    + " they are evaluated elsewhere: set prometheus.rules_url to that rules source (vmalert, Thanos Ruler,"
                    + " a Mimir ruler)"));
    backend.verify(anyRequestedFor(urlEqualTo("/vmalert/api/v1/rules")));
  }
}
