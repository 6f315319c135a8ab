package dev.firedrill.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.firedrill.embedded.config.ConfigLoader;
import dev.firedrill.embedded.drive.VirtualDriver;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusAlert;
import dev.firedrill.prometheus.QueryResult;
import dev.firedrill.time.VirtualClock;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The standard parts on a virtual clock: a loopback exporter scraped, a rule with {@code for: 1m}
 * pending then firing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StandardComponentsTest {

  private static final Instant START = Instant.parse("2026-11-29T00:00:00Z");

  @TempDir Path dir;
  private HttpServer exporter;

  @BeforeEach
  void startExporter() throws Exception {
    exporter = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    exporter.createContext(
        "/metrics",
        exchange -> {
          byte[] body =
              "# TYPE orders_pending gauge\norders_pending 3\n".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    exporter.start();
  }

  @AfterEach
  void stopExporter() {
    exporter.stop(0);
  }

  private EmbeddedPrometheus.Settings settings(String rules) throws Exception {
    Path ruleFile = Files.writeString(dir.resolve("rules.yml"), rules);
    String yaml =
        "global:\n  scrape_interval: 10s\n  evaluation_interval: 10s\nrule_files:\n  - rules.yml\n"
            + "scrape_configs:\n  - job_name: shop\n    static_configs:\n      - targets: ['127.0.0.1:"
            + exporter.getAddress().getPort()
            + "']\n";
    Path file = Files.writeString(dir.resolve("prometheus.yml"), yaml);
    assertThat(ruleFile).exists();
    return EmbeddedPrometheus.Settings.of(ConfigLoader.load(file), yaml, 0);
  }

  @Test
  void aMinuteOfForPassesInVirtualTime() throws Exception {
    EmbeddedPrometheus.Settings settings =
        settings(
            "groups:\n  - name: shop\n    rules:\n      - alert: OrdersPending\n"
                + "        expr: orders_pending > 0\n        for: 1m\n        annotations:\n          summary: '{{ $value }} pending'\n");
    VirtualClock clock = new VirtualClock(START);
    try (EmbeddedPrometheus prometheus =
        EmbeddedPrometheus.simulate(
            settings,
            new StandardComponents(StandardComponents.DEFAULT_RESEND_DELAY),
            VirtualDriver.on(clock))) {
      HttpPrometheusClient client =
          new HttpPrometheusClient(prometheus.url(), Duration.ofSeconds(5), Optional.empty());

      clock.advance(Duration.ofSeconds(30));
      List<PrometheusAlert> pending = client.alerts();
      clock.advance(Duration.ofSeconds(60));
      List<PrometheusAlert> firing = client.alerts();

      assertThat(client.query("up"))
          .isInstanceOfSatisfying(
              QueryResult.Vector.class,
              up ->
                  assertThat(up.samples())
                      .singleElement()
                      .satisfies(s -> assertThat(s.value()).isEqualTo(1)));
      assertThat(pending)
          .singleElement()
          .satisfies(
              alert -> {
                assertThat(alert.state()).isEqualTo("pending");
                assertThat(alert.annotations()).containsEntry("summary", "3 pending");
                assertThat(alert.activeAt())
                    .get()
                    .matches(at -> !at.isBefore(START) && at.isBefore(START.plusSeconds(30)));
              });
      assertThat(firing)
          .singleElement()
          .satisfies(
              alert -> {
                assertThat(alert.state()).isEqualTo("firing");
                assertThat(alert.activeAt()).isEqualTo(pending.get(0).activeAt());
              });
      assertThat(clock.now()).isEqualTo(START.plusSeconds(90));
    }
  }

  @Test
  void prometheusRuleObjectsInRuleFilesAreEvaluated() throws Exception {
    EmbeddedPrometheus.Settings settings =
        settings(
            """
        apiVersion: monitoring.coreos.com/v1
        kind: PrometheusRule
        metadata: {name: shop-rules, namespace: shop}
        spec:
          groups:
            - name: shop
              rules:
                - alert: OrdersPending
                  expr: orders_pending > 0
        ---
        apiVersion: v1
        kind: List
        items:
          - apiVersion: monitoring.coreos.com/v1
            kind: PrometheusRule
            metadata: {name: shop-records, namespace: shop}
            spec:
              groups:
                - name: shop-records
                  rules:
                    - record: shop:orders_pending:sum
                      expr: sum(orders_pending)
        """);
    VirtualClock clock = new VirtualClock(START);
    try (EmbeddedPrometheus prometheus =
        EmbeddedPrometheus.simulate(
            settings,
            new StandardComponents(StandardComponents.DEFAULT_RESEND_DELAY),
            VirtualDriver.on(clock))) {
      HttpPrometheusClient client =
          new HttpPrometheusClient(prometheus.url(), Duration.ofSeconds(5), Optional.empty());
      clock.advance(Duration.ofSeconds(30));

      assertThat(client.rules())
          .extracting(g -> g.name() + " " + g.file())
          .containsExactly(
              "shop " + dir.resolve("rules.yml"), "shop-records " + dir.resolve("rules.yml"));
      assertThat(client.alerts())
          .singleElement()
          .satisfies(alert -> assertThat(alert.state()).isEqualTo("firing"));
      assertThat(client.query("shop:orders_pending:sum"))
          .isInstanceOfSatisfying(
              QueryResult.Vector.class,
              v ->
                  assertThat(v.samples())
                      .singleElement()
                      .satisfies(s -> assertThat(s.value()).isEqualTo(3)));
    }
  }

  @Test
  void aBrokenRuleFileIsAnIllegalArgumentNamingIt() throws Exception {
    EmbeddedPrometheus.Settings settings =
        settings(
            "groups:\n  - name: shop\n    rules:\n      - alert: Broken\n        expr: sum((\n");

    assertThatThrownBy(
            () ->
                EmbeddedPrometheus.simulate(
                    settings,
                    new StandardComponents(Duration.ofMinutes(1)),
                    VirtualDriver.on(new VirtualClock(START))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            dir.resolve("rules.yml")
                + ": /groups/0/rules/0/expr: group \"shop\", rule 1, \"Broken\":"
                + " could not parse expression: 1:6: parse error: unclosed left parenthesis (line 5, column 9)");
  }
}
