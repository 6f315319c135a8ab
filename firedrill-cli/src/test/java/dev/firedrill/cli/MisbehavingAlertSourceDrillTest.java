package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.testing.Misbehaviour;
import dev.firedrill.testing.StubHttpServer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Whole drills whose alert source misbehaves from its first read with the fault on, beside a
 * healthy query API: Alertmanager's {@code /api/v2/alerts} (Prometheus's rules and alerts healthy:
 * the alert fires, its routing cannot be read), and Grafana-managed alerting's {@code
 * /api/prometheus/grafana/api/v1/alerts} (the SLIs through the same Grafana's data-source proxy
 * healthy: whether the alert fired cannot be read). The system held, so the drill's exit is its
 * observability verdict's: inconclusive (4) for an expectation the stack left unmeasured, never
 * "held" nor "missed"; one console line names the server; the run ends within the alert's window
 * plus the timeouts; the fault is rolled back and verified.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MisbehavingAlertSourceDrillTest {

  private static final String VECTOR =
      "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
          + "[{\"metric\":{},\"value\":[1700000000,\"0\"]}]}}";

  private static final String NO_ALERTS = "{\"status\":\"success\",\"data\":{\"alerts\":[]}}";

  /** Where an alert source's answers are and what a healthy one says. */
  enum Source {
    /**
     * Prometheus evaluates the rule and lists the alert firing; Alertmanager routes it to the
     * expected receiver. The expectation names the receiver, so its routing needs Alertmanager.
     */
    ALERTMANAGER("/api/v2/alerts", "Alertmanager at ") {
      @Override
      String healthy(Instant startsAt) {
        return """
            [{"annotations":{},"endsAt":"2099-01-01T00:00:00Z","fingerprint":"5d2a6b6f0e9c1a2b",
              "receivers":[{"name":"team-checkout"}],"startsAt":"%s",
              "status":{"inhibitedBy":[],"silencedBy":[],"state":"active"},
              "updatedAt":"%1$s","generatorURL":"http://127.0.0.1:9090/graph",
              "labels":{"alertname":"CheckoutErrors","service":"checkout"}}]
            """
            .formatted(startsAt);
      }
    },
    /** Grafana's Prometheus-compatible alerting API: Normal before the fault, Alerting once on. */
    GRAFANA("/api/prometheus/grafana/api/v1/alerts", "/api/prometheus/grafana") {
      @Override
      String healthy(Instant activeAt) {
        return instance("Alerting", activeAt);
      }
    };

    final String path;
    final String names;

    Source(String path, String names) {
      this.path = path;
      this.names = names;
    }

    /** What the source answers once the fault shows, {@code at} when the alert went firing. */
    abstract String healthy(Instant at);
  }

  static Stream<Arguments> cases() {
    return Misbehaviour.against(Source.values());
  }

  private static final String PROMETHEUS_RULES =
      """
      {"status":"success","data":{"groups":[{"name":"checkout","file":"checkout.yml","interval":1,
        "rules":[{"state":"inactive","name":"CheckoutErrors","query":"sum(rate(errors_total[1m])) > 0",
          "duration":0,"labels":{"service":"checkout"},"annotations":{},"alerts":[],"health":"ok",
          "type":"alerting"}]}]}}
      """;

  private static final String GRAFANA_RULES =
      """
      {"status":"success","data":{"groups":[{"name":"checkout","file":"payments","interval":1,
        "rules":[{"state":"inactive","name":"Checkout errors","uid":"checkout-errors",
          "query":"[{\\"refId\\":\\"A\\",\\"datasourceUid\\":\\"prom\\",\\"model\\":{\\"expr\\":\\"sum(rate(errors_total[1m]))\\",\\"refId\\":\\"A\\"}}]",
          "duration":0,"labels":{"service":"checkout"},"annotations":{},"alerts":[],"health":"ok",
          "type":"alerting"}]}]}}
      """;

  /** One Grafana alert instance of "Checkout errors" in {@code state} since {@code activeAt}. */
  private static String instance(String state, Instant activeAt) {
    return """
        {"status":"success","data":{"alerts":[{"labels":{"alertname":"Checkout errors",
          "service":"checkout","grafana_folder":"payments"},"annotations":{},"state":"%s",
          "activeAt":"%s","value":""}]}}
        """
        .formatted(state, activeAt);
  }

  /** The alert's window: the drill watches for it until then after injection. */
  private static final Duration WITHIN = Duration.ofSeconds(4);

  @TempDir Path dir;

  // Its cases run four at a time: each is a drill on stubs, a folder and a history of its own,
  // mostly waiting out the timeouts it tests. The class itself runs alone, as every class here does
  // (another sends signals to this JVM).
  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void anAlertSourceThatCannotBeReadLeavesTheDrillInconclusiveOnTime(Source s, Misbehaviour m)
      throws Exception {
    try (StubHttpServer prometheus = StubHttpServer.start();
        StubHttpServer alertSource = StubHttpServer.start()) {
      String experiment;
      StubHttpServer misbehaving;
      if (s == Source.ALERTMANAGER) {
        prometheus.route("/api/v1/query").respondJson(200, VECTOR);
        prometheus.route("/api/v1/rules").respondJson(200, PROMETHEUS_RULES);
        StubHttpServer alerts = prometheus.route("/api/v1/alerts").respondJson(200, NO_ALERTS);
        // Preflight's read finds it inactive; it fires once the fault is on.
        alerts.after(
            1,
            a ->
                a.respondJson(
                    200,
                    """
                    {"status":"success","data":{"alerts":[{"labels":{"alertname":"CheckoutErrors",
                      "service":"checkout"},"annotations":{},"state":"firing","activeAt":"%s",
                      "value":"1"}]}}
                    """
                        .formatted(Instant.now())));
        prometheus.respondJson(404, "{\"status\":\"error\",\"error\":\"not found\"}");
        misbehaving = alertSource.route(s.path);
        // Alertmanager is read only once the fault is on: every read misbehaves, from the first.
        misbehaving.after(
            0,
            a -> {
              a.respondJson(200, s.healthy(Instant.now()));
              m.on(a);
            });
        experiment =
            """
            prometheus: {url: %s, timeout: 1s}
            alertmanager: {url: %s, timeout: 1s}
            """
                .formatted(prometheus.url(""), alertSource.url(""));
      } else {
        String proxy = "/api/datasources/proxy/uid/prom";
        alertSource.route(proxy + "/api/v1/query").respondJson(200, VECTOR);
        alertSource.route("/api/prometheus/grafana/api/v1/rules").respondJson(200, GRAFANA_RULES);
        misbehaving = alertSource.route(s.path).respondJson(200, instance("Normal", Instant.now()));
        // Preflight's read finds it Normal; every read with the fault on misbehaves.
        misbehaving.after(
            1,
            a -> {
              a.respondJson(200, s.healthy(Instant.now()));
              m.on(a);
            });
        alertSource.respondJson(404, "{\"message\":\"Not found\"}");
        experiment =
            """
            prometheus:
              url: %s
              rules_url: %s
              timeout: 1s
            """
                .formatted(alertSource.url(proxy), alertSource.url("/api/prometheus/grafana"));
      }
      String alert = s == Source.ALERTMANAGER ? "CheckoutErrors" : "Checkout errors";
      String receiver = s == Source.ALERTMANAGER ? ", receiver: team-checkout" : "";
      ExperimentRun drill =
          ExperimentRun.of(
              dir,
              (s + "-" + m).toLowerCase(),
              """
              id: misbehaving-alert-source
              title: A misbehaving alert source leaves the detection unmeasured, on time
              %s
              steady_state:
                interval: 1s
                slis:
                  - {name: error_ratio, query: 'sum(rate(errors_total[1m]))', max: 0.02}
              hypothesis:
                recovery: 1s
                alerts:
                  - {alert: '%s', matchers: {service: checkout}, expect: firing, within: 4s%s}
              method:
                duration: 2s
                faults: [{kind: cpu-burn, workers: 1, ttl: 1m}]
              abort: {rules: [{sli: error_ratio, above: 0.5}]}
              blast_radius: {traffic_share: 5%%, max_duration: 15m, max_workers: 1}
              """
                  .formatted(experiment, alert, receiver));
      CliRun run = drill.run();
      JsonNode record = drill.journal();
      Duration took = drill.drillTime();
      JsonNode row = record.path("detection").path("alerts").path(0);
      System.out.printf(
          "%s %s: exit %d, verdict %s, observability %s, drill %.1f s, run %.1f s%n",
          s,
          m,
          run.exit(),
          record.path("verdict").asText(),
          record.path("detection").path("verdict").asText(),
          took.toMillis() / 1000.0,
          drill.took().toMillis() / 1000.0);
      run.out().lines().filter(l -> l.contains(" detect ")).forEach(System.out::println);
      System.out.println(row.path("reason").asText());
      // Preflight's query, rules and alerts (a 1 s timeout each at worst); the alert's window,
      // which the reads after each measurement overrun by at most their two 1 s timeouts; two more
      // rounds of reads past it (the recovery's and the last); 6 s for starting and stopping the
      // worker on a loaded machine (these drills run four at a time, each burning a core).
      assertThat(took).as(run.describe()).isLessThan(WITHIN.plusSeconds(3 + 2 + 4 + 6));
      assertThat(record.path("rollback_ok").asBoolean()).as(run.describe()).isTrue();
      assertThat(run.out() + run.err())
          .as(run.describe())
          .doesNotContain("\tat ", "java.io.", "java.net.");
      assertThat(misbehaving.requests()).as(run.describe()).isNotEmpty();
      if (m == Misbehaviour.GONE_AND_BACK) {
        // Back within the window: the source is read again and the expectation measured.
        assertThat(row.path("held").asBoolean()).as(run.describe()).isTrue();
        return;
      }
      // The system's own verdict is held: its SLI query is healthy (on a machine loaded enough for
      // that query to time out at 1 s it is inconclusive, which exits 4 as well).
      assertThat(record.path("verdict").asText()).as(run.describe()).isIn("held", "inconclusive");
      assertThat(record.path("detection").path("verdict").asText())
          .as(run.describe())
          .isEqualTo("inconclusive");
      assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.INCONCLUSIVE);
      assertThat(row.path("held").asBoolean()).as(run.describe()).isFalse();
      assertThat(row.path("unknown").asBoolean()).as(run.describe()).isTrue();
      assertThat(row.path("reason").asText())
          .as(run.describe())
          .startsWith(s == Source.ALERTMANAGER ? "routing unknown: " : "unknown: ")
          .contains(s.names)
          .doesNotContain("missed");
      assertThat(
              run.out()
                  .lines()
                  .filter(l -> l.contains(" detect ") || l.contains("alerts "))
                  .filter(l -> l.contains(s.names))
                  .count())
          .as("a console line naming the alert source (%s)\n%s", s.names, run.describe())
          .isPositive();
    }
  }
}
