package dev.firedrill.embedded.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.embedded.rules.snapshot.AlertSnapshot;
import dev.firedrill.embedded.rules.snapshot.GroupSnapshot;
import dev.firedrill.embedded.rules.snapshot.RuleSnapshot;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusAlert;
import dev.firedrill.prometheus.PrometheusConfig;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.prometheus.QueryResult;
import dev.firedrill.prometheus.Rule;
import dev.firedrill.prometheus.RuleGroup;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.eval.Value;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.time.VirtualClock;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The drill engine's own Prometheus client reads the embedded API as it reads the real one. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExistingClientTest {

  private static final Instant NOW = Instant.parse("2026-11-29T23:48:00Z");
  private static final LabelSet UP =
      LabelSet.of("__name__", "up", "instance", "127.0.0.1:9100", "job", "demo");

  private final StubEngine engine = new StubEngine();
  private ApiServer server;
  private HttpPrometheusClient client;

  @BeforeEach
  void start() throws Exception {
    Instant activeAt = Instant.parse("2026-11-29T23:47:30.25Z");
    AlertSnapshot alert =
        new AlertSnapshot(
            Map.of("alertname", "Down", "job", "demo"),
            Map.of("summary", "demo is down"),
            "pending",
            Optional.of(activeAt),
            Optional.empty(),
            "0e+00");
    List<GroupSnapshot> groups =
        List.of(
            new GroupSnapshot(
                "availability",
                "/etc/rules.yml",
                List.of(
                    new RuleSnapshot.Recording(
                        "job:up:sum",
                        "sum by (job) (up)",
                        Map.of("team", "sre"),
                        "ok",
                        "",
                        Optional.of(NOW),
                        0.001),
                    new RuleSnapshot.Alerting(
                        "pending",
                        "Down",
                        "up == 0",
                        30,
                        0,
                        Map.of(),
                        Map.of("summary", "demo is down"),
                        List.of(alert),
                        "ok",
                        "",
                        Optional.of(NOW),
                        0.001)),
                15,
                0,
                0.002,
                Optional.of(NOW)));
    server =
        ApiServer.start(
            new InetSocketAddress("127.0.0.1", 0),
            new ApiServer.Parts(
                engine,
                new StubSeries(),
                () -> groups,
                () ->
                    "global:\n  scrape_interval: 15s\n  evaluation_interval: 15s\nscrape_configs:\n"
                        + "- job_name: demo\n  scrape_interval: 5s\n",
                BuildInfo.firedrill(),
                new VirtualClock(NOW)));
    client = new HttpPrometheusClient(server.url(), Duration.ofSeconds(5), Optional.empty());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void readsVectorsAtTheServersNowAndAtAGivenTime() throws Exception {
    engine.answers(
        "up",
        StubEngine.selector("up"),
        () ->
            new Value.Vector(
                List.of(
                    new Value.Sample(UP, engine.calls.get(engine.calls.size() - 1).startMs(), 1))));

    assertThat(client.query("up"))
        .isEqualTo(
            new QueryResult.Vector(
                List.of(
                    new QueryResult.Sample(
                        Map.of("__name__", "up", "instance", "127.0.0.1:9100", "job", "demo"),
                        NOW,
                        1))));
    Instant at = Instant.parse("2026-11-29T23:40:00.125Z");
    assertThat(client.query("up", at))
        .isEqualTo(
            new QueryResult.Vector(
                List.of(
                    new QueryResult.Sample(
                        Map.of("__name__", "up", "instance", "127.0.0.1:9100", "job", "demo"),
                        at,
                        1))));
    assertThat(engine.calls.get(0).timeout()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void readsScalarsMatricesAndSpecialValues() throws Exception {
    engine.answers(
        "scalar(up)", new Expr.NumberLiteral(1), new Value.Scalar(NOW.toEpochMilli(), Double.NaN));
    engine.answers(
        "up[1m]",
        new Expr.MatrixSelector(StubEngine.selector("up"), 60_000),
        new Value.Matrix(
            List.of(
                new Value.Series(
                    UP,
                    new long[] {NOW.toEpochMilli() - 1_500, NOW.toEpochMilli()},
                    new double[] {1e-7, Double.NEGATIVE_INFINITY}))));

    assertThat(client.query("scalar(up)")).isEqualTo(new QueryResult.Scalar(NOW, Double.NaN));
    assertThat(client.query("up[1m]"))
        .isEqualTo(
            new QueryResult.Matrix(
                List.of(
                    new QueryResult.Series(
                        Map.of("__name__", "up", "instance", "127.0.0.1:9100", "job", "demo"),
                        List.of(
                            new QueryResult.Point(NOW.minusMillis(1_500), 1e-7),
                            new QueryResult.Point(NOW, Double.NEGATIVE_INFINITY))))));
  }

  @Test
  void reportsRefusedAndFailedQueriesInItsOwnWords() {
    engine.answers(
        "boom",
        new Expr.NumberLiteral(1),
        () -> {
          throw new PromqlException(
              PromqlException.ErrorType.EXECUTION, "found duplicate series for the match group");
        });

    assertThatThrownBy(() -> client.query("sum(("))
        .isInstanceOf(PrometheusException.class)
        .hasMessage(
            "Prometheus at "
                + server.url()
                + " refused query \"sum((\": bad_data: 1:6: parse error: unclosed left parenthesis");
    assertThatThrownBy(() -> client.query("boom"))
        .isInstanceOf(PrometheusException.class)
        .hasMessage(
            "Prometheus at "
                + server.url()
                + " refused query \"boom\": execution: found duplicate series for the match group");
  }

  @Test
  void readsAlertsRulesAndTheConfig() throws Exception {
    PrometheusAlert alert =
        new PrometheusAlert(
            Map.of("alertname", "Down", "job", "demo"),
            Map.of("summary", "demo is down"),
            "pending",
            Optional.of(Instant.parse("2026-11-29T23:47:30.25Z")),
            "0e+00");

    assertThat(client.alerts()).containsExactly(alert);
    assertThat(client.rules())
        .containsExactly(
            new RuleGroup(
                "availability",
                "/etc/rules.yml",
                Duration.ofSeconds(15),
                List.of(
                    new Rule.Recording(
                        "job:up:sum",
                        "sum by (job) (up)",
                        Map.of("team", "sre"),
                        "ok",
                        Optional.empty(),
                        Optional.of(NOW)),
                    new Rule.Alerting(
                        "Down",
                        "up == 0",
                        Duration.ofSeconds(30),
                        Map.of(),
                        Map.of("summary", "demo is down"),
                        "ok",
                        Optional.empty(),
                        Optional.of(NOW),
                        "pending",
                        List.of(alert)))));
    assertThat(client.parsedConfig())
        .isEqualTo(
            new PrometheusConfig(
                Duration.ofSeconds(15),
                Duration.ofSeconds(15),
                Duration.ZERO,
                Map.of("demo", Duration.ofSeconds(5))));
  }
}
