package dev.firedrill.embedded.rules;

import static dev.firedrill.embedded.rules.RuleHarness.sample;
import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.alerting.AlertmanagerAlert;
import dev.firedrill.alerting.AlertmanagerClient;
import dev.firedrill.embedded.notify.Notifier;
import dev.firedrill.embedded.storage.MemoryStorage;
import dev.firedrill.lab.stack.LocalAlertmanager;
import dev.firedrill.lab.stack.TempDirs;
import dev.firedrill.net.Loopback;
import dev.firedrill.promql.eval.Value;
import dev.firedrill.testing.RequiredBinary;
import dev.firedrill.testing.StubHttpServer;
import dev.firedrill.time.Clock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Rules through the notifier: to a loopback stub, and to the real Alertmanager. */
class RulesToAlertmanagerTest {

  private static final String RULES =
      """
      groups:
        - name: drill
          interval: 1s
          rules:
            - alert: PaymentsDown
              expr: up{job="payments"} == 0
              labels:
                team: payments
              annotations:
                summary: '{{ $labels.job }} is down'
      """;

  private final AtomicBoolean down = new AtomicBoolean(true);

  private RuleManager manager(Notifier notifier) {
    List<RuleGroupSpec> groups = RuleFileLoader.withPromql().parse("drill.yml", RULES);
    RuleQuery query =
        (expr, t) ->
            new Value.Vector(
                down.get()
                    ? List.of(
                        sample(
                            0, "__name__", "up", "job", "payments", "instance", "127.0.0.1:18092"))
                    : List.of());
    return new RuleManager(
        groups,
        new RuleManager.Options(1000, 60_000, Map.of(), "http://127.0.0.1:9090"),
        query,
        new MemoryStorage(),
        notifier,
        () -> 0L);
  }

  /** Runs the next due evaluation; returns its time. */
  private static long step(RuleManager manager) {
    long t = manager.nextDueMs();
    manager.evaluateDue(t);
    return t;
  }

  @Test
  void firingThenResolvedReachTheStubWithPrometheussTimes() throws Exception {
    try (StubHttpServer stub = StubHttpServer.start().respondJson(200, "");
        Notifier notifier = Notifier.start(Notifier.Options.defaults(List.of(stub.url(""))))) {
      RuleManager manager = manager(notifier);
      manager.evaluateDue(1_700_000_000_000L);
      long firedAt = step(manager);
      assertThat(notifier.flush(Duration.ofSeconds(10))).isTrue();
      String firing = stub.lastRequest().body();
      assertThat(firing)
          .isEqualTo(
              "[{\"labels\":{\"alertname\":\"PaymentsDown\",\"instance\":\"127.0.0.1:18092\","
                  + "\"job\":\"payments\",\"team\":\"payments\"},\"annotations\":{\"summary\":\"payments is down\"},"
                  + "\"startsAt\":\""
                  + Instant.ofEpochMilli(firedAt)
                  + "\",\"endsAt\":\""
                  + Instant.ofEpochMilli(firedAt + 240_000)
                  + "\",\"generatorURL\":\"http://127.0.0.1:9090/graph?g0.expr="
                  + "up%7Bjob%3D%22payments%22%7D+%3D%3D+0&g0.tab=1\"}]");
      step(manager);
      assertThat(notifier.flush(Duration.ofSeconds(10))).isTrue();
      assertThat(stub.requests()).as("not resent within the resend delay").hasSize(1);
      down.set(false);
      long resolvedAt = step(manager);
      assertThat(notifier.flush(Duration.ofSeconds(10))).isTrue();
      assertThat(stub.requests()).hasSize(2);
      assertThat(stub.lastRequest().body())
          .contains("\"startsAt\":\"" + Instant.ofEpochMilli(firedAt) + "\"")
          .contains("\"endsAt\":\"" + Instant.ofEpochMilli(resolvedAt) + "\"");
    }
  }

  @Test
  void theRealAlertmanagerShowsTheAlertWithOurStartsAt() throws Exception {
    Path binary =
        RequiredBinary.find(
            "prometheus-alertmanager", "FIREDRILL_ALERTMANAGER", "prometheus-alertmanager");
    String config =
        """
        route:
          receiver: nobody
        receivers:
          - name: nobody
        """;
    Path dir = TempDirs.create("firedrill-rules-am-");
    try (LocalAlertmanager alertmanager =
            LocalAlertmanager.start(
                binary, Loopback.freePort(), config, dir, false, Clock.system());
        Notifier notifier =
            Notifier.start(Notifier.Options.defaults(List.of(alertmanager.url())))) {
      RuleManager manager = manager(notifier);
      // Evaluation times in the past, as Prometheus's are: Alertmanager ignores a resolution dated
      // in the future.
      manager.evaluateDue(Clock.system().now().toEpochMilli() - 10_000);
      long firedAt = step(manager);
      assertThat(notifier.flush(Duration.ofSeconds(10))).isTrue();
      assertThat(notifier.lastError()).isEmpty();
      AlertmanagerClient client =
          new AlertmanagerClient(alertmanager.url(), Duration.ofSeconds(5), Optional.empty());
      AlertmanagerAlert alert =
          client.alerts().stream()
              .filter(a -> a.alertname().equals("PaymentsDown"))
              .findFirst()
              .orElseThrow();
      assertThat(alert.startsAt()).isEqualTo(Instant.ofEpochMilli(firedAt));
      assertThat(alert.endsAt()).isEqualTo(Instant.ofEpochMilli(firedAt + 240_000));
      assertThat(alert.labels())
          .isEqualTo(
              Map.of(
                  "alertname",
                  "PaymentsDown",
                  "instance",
                  "127.0.0.1:18092",
                  "job",
                  "payments",
                  "team",
                  "payments"));
      assertThat(alert.annotations()).isEqualTo(Map.of("summary", "payments is down"));
      assertThat(alert.generatorUrl())
          .isEqualTo(
              "http://127.0.0.1:9090/graph?g0.expr=up%7Bjob%3D%22payments%22%7D+%3D%3D+0&g0.tab=1");

      down.set(false);
      long resolvedAt = step(manager);
      assertThat(notifier.flush(Duration.ofSeconds(10))).isTrue();
      assertThat(resolvedAt).isLessThan(Clock.system().now().toEpochMilli());
      assertThat(client.alerts())
          .as("resolved: no longer listed")
          .noneMatch(a -> a.alertname().equals("PaymentsDown"));
    }
  }
}
