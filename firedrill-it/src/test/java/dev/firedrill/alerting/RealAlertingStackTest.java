package dev.firedrill.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.alerting.receiver.Notification;
import dev.firedrill.alerting.receiver.ReceiverConfig;
import dev.firedrill.alerting.receiver.WebhookReceiver;
import dev.firedrill.alerting.webhook.WebhookMessage;
import dev.firedrill.lab.stack.LocalAlertmanager;
import dev.firedrill.lab.stack.LocalPrometheus;
import dev.firedrill.lab.stack.TempDirs;
import dev.firedrill.net.Loopback;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusAlert;
import dev.firedrill.prometheus.PrometheusConfig;
import dev.firedrill.prometheus.Rule;
import dev.firedrill.prometheus.RuleGroup;
import dev.firedrill.testing.Poll;
import dev.firedrill.testing.Stacks;
import dev.firedrill.time.Clock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real chain: Prometheus evaluates an always-firing rule, sends it to a real Alertmanager,
 * whose route sends team=payments to firedrill's webhook receiver. What each API says about the one
 * alert must agree, on both pairs of {@link Stacks}.
 */
class RealAlertingStackTest {

  private static final Duration WAIT = Duration.ofSeconds(30);

  private static final String RULES =
      """
      groups:
        - name: drill
          interval: 1s
          rules:
            - alert: PaymentsAlwaysFiring
              expr: vector(1) > 0
              for: 0s
              labels:
                team: payments
                severity: page
              annotations:
                summary: always firing
                runbook_url: https://runbooks.example.com/payments/always
            - alert: SlowToFire
              expr: vector(2) > 0
              for: 1h
              labels:
                team: checkout
            - record: drill:one
              expr: vector(1)
      """;

  @ParameterizedTest
  @MethodSource("dev.firedrill.testing.EachPair#pairs")
  void aFiringAlertReachesTheReceiverAndEveryApiAgrees(Supplier<Stacks.Pair> stacks)
      throws Exception {
    Stacks.Pair pair = stacks.get();
    Path prometheusBinary = pair.prometheus();
    Path alertmanagerBinary = pair.alertmanager();
    Clock clock = Clock.system();
    Path amDir = TempDirs.create("firedrill-am-test-");
    Path promDir = TempDirs.create("firedrill-prom-test-");
    try (WebhookReceiver receiver = WebhookReceiver.start(ReceiverConfig.defaults(), clock)) {
      int amPort = Loopback.freePort();
      String amConfig =
          """
          route:
            receiver: unrouted
            group_by: [alertname]
            group_wait: 1s
            group_interval: 1s
            repeat_interval: 1h
            routes:
              - receiver: team-payments
                matchers: ['team="payments"']
          receivers:
            - name: unrouted
            - name: team-payments
              webhook_configs:
                - url: '%s'
                  send_resolved: true
          """
              .formatted(receiver.url());
      try (LocalAlertmanager alertmanager =
          LocalAlertmanager.start(alertmanagerBinary, amPort, amConfig, amDir, false, clock)) {
        Path rules = Files.writeString(promDir.resolve("drill-rules.yml"), RULES);
        int promPort = Loopback.freePort();
        String promConfig =
            LocalPrometheus.global()
                + """
            rule_files:
              - '%s'
            alerting:
              alertmanagers:
                - static_configs:
                    - targets: ['127.0.0.1:%d']
            scrape_configs:
              - job_name: self
                static_configs:
                  - targets: ['127.0.0.1:%d']
              - job_name: slow
                scrape_interval: 5s
                scrape_timeout: 1s
                static_configs:
                  - targets: ['127.0.0.1:%d']
            """
                    .formatted(rules, amPort, promPort, amPort);
        try (LocalPrometheus prometheus =
            LocalPrometheus.start(prometheusBinary, promPort, promConfig, promDir, false, clock)) {
          HttpPrometheusClient promClient =
              new HttpPrometheusClient(prometheus.url(), Duration.ofSeconds(5), Optional.empty());
          AlertmanagerClient amClient =
              new AlertmanagerClient(alertmanager.url(), Duration.ofSeconds(5), Optional.empty());

          // 1. The webhook.
          Notification notification =
              Poll.until(
                  "a firing notification for PaymentsAlwaysFiring at the receiver",
                  WAIT,
                  () ->
                      receiver.notifications().stream()
                          .filter(
                              n ->
                                  n.message().firing()
                                      && n.message().alerts().stream()
                                          .anyMatch(
                                              a -> a.alertname().equals("PaymentsAlwaysFiring")))
                          .findFirst());
          assertThat(receiver.rejections()).isEmpty();
          WebhookMessage message = notification.message();
          assertThat(message.receiver()).isEqualTo("team-payments");
          assertThat(message.status()).isEqualTo("firing");
          assertThat(message.groupLabels()).isEqualTo(Map.of("alertname", "PaymentsAlwaysFiring"));
          assertThat(message.groupKey())
              .contains("team=\"payments\"")
              .contains("PaymentsAlwaysFiring");
          assertThat(message.alerts()).hasSize(1);
          WebhookMessage.Alert webhookAlert = message.alerts().get(0);
          assertThat(webhookAlert.status()).isEqualTo("firing");
          assertThat(webhookAlert.labels())
              .isEqualTo(
                  Map.of(
                      "alertname", "PaymentsAlwaysFiring", "team", "payments", "severity", "page"));
          assertThat(webhookAlert.annotations())
              .isEqualTo(
                  Map.of(
                      "summary",
                      "always firing",
                      "runbook_url",
                      "https://runbooks.example.com/payments/always"));
          assertThat(webhookAlert.endsAt()).isEmpty();
          assertThat(webhookAlert.fingerprint()).matches("[0-9a-f]{16}");
          assertThat(webhookAlert.startsAt()).isBefore(notification.receivedAt());
          Duration toNotify = Duration.between(webhookAlert.startsAt(), notification.receivedAt());
          System.out.println(
              "RealAlertingStackTest "
                  + pair
                  + ": time to notify (receivedAt - startsAt) = "
                  + toNotify.toMillis()
                  + " ms with group_wait 1s");
          assertThat(toNotify).isLessThan(WAIT);

          // 2. Alertmanager's view of the same alert.
          AlertmanagerAlert amAlert =
              Poll.until(
                  "PaymentsAlwaysFiring in Alertmanager's /api/v2/alerts",
                  WAIT,
                  () ->
                      amClient.alerts().stream()
                          .filter(a -> a.alertname().equals("PaymentsAlwaysFiring"))
                          .findFirst());
          assertThat(amAlert.receivers()).containsExactly("team-payments");
          assertThat(amAlert.fingerprint()).isEqualTo(webhookAlert.fingerprint());
          assertThat(amAlert.startsAt()).isEqualTo(webhookAlert.startsAt());
          assertThat(amAlert.state()).isEqualTo("active");
          assertThat(amAlert.labels()).isEqualTo(webhookAlert.labels());
          assertThat(amAlert.annotations()).isEqualTo(webhookAlert.annotations());
          assertThat(amAlert.endsAt()).isAfter(amAlert.startsAt());
          assertThat(amAlert.generatorUrl()).startsWith("http");
          assertThat(amAlert.silencedBy()).isEmpty();
          assertThat(amAlert.inhibitedBy()).isEmpty();

          // 3. Prometheus's view: alerts, rules, config.
          List<PrometheusAlert> promAlerts = promClient.alerts();
          PrometheusAlert firing =
              promAlerts.stream()
                  .filter(a -> a.alertname().equals("PaymentsAlwaysFiring"))
                  .findFirst()
                  .orElseThrow();
          assertThat(firing.state()).isEqualTo("firing");
          assertThat(firing.labels()).isEqualTo(webhookAlert.labels());
          assertThat(firing.annotations()).isEqualTo(webhookAlert.annotations());
          assertThat(firing.value()).isEqualTo("1e+00");
          // With for: 0s the evaluation that makes it active also fires it. Prometheus's API keeps
          // nanoseconds; what reaches Alertmanager (and so the webhook) is cut to milliseconds.
          assertThat(firing.activeAt()).isPresent();
          assertThat(firing.activeAt().get().getNano() % 1_000_000).isNotZero();
          assertThat(firing.activeAt().get().truncatedTo(ChronoUnit.MILLIS))
              .isEqualTo(webhookAlert.startsAt());
          PrometheusAlert pending =
              promAlerts.stream()
                  .filter(a -> a.alertname().equals("SlowToFire"))
                  .findFirst()
                  .orElseThrow();
          assertThat(pending.state()).isEqualTo("pending");
          assertThat(pending.value()).isEqualTo("2e+00");
          assertThat(pending.activeAt()).isPresent();

          List<RuleGroup> groups = promClient.rules();
          assertThat(groups).hasSize(1);
          RuleGroup group = groups.get(0);
          assertThat(group.name()).isEqualTo("drill");
          assertThat(group.file()).isEqualTo(rules.toString());
          assertThat(group.interval()).isEqualTo(Duration.ofSeconds(1));
          assertThat(group.rules()).hasSize(3);
          Rule.Alerting always = (Rule.Alerting) group.rules().get(0);
          assertThat(always.name()).isEqualTo("PaymentsAlwaysFiring");
          assertThat(always.query()).isEqualTo("vector(1) > 0");
          assertThat(always.duration()).isEqualTo(Duration.ZERO);
          assertThat(always.state()).isEqualTo("firing");
          assertThat(always.health()).isEqualTo("ok");
          assertThat(always.lastError()).isEmpty();
          assertThat(always.lastEvaluation()).isPresent();
          assertThat(always.labels()).isEqualTo(Map.of("team", "payments", "severity", "page"));
          assertThat(always.annotations()).isEqualTo(webhookAlert.annotations());
          assertThat(always.alerts()).extracting(PrometheusAlert::state).containsExactly("firing");
          Rule.Alerting slow = (Rule.Alerting) group.rules().get(1);
          assertThat(slow.duration()).isEqualTo(Duration.ofHours(1));
          assertThat(slow.state()).isEqualTo("pending");
          assertThat(slow.annotations()).isEmpty();
          Rule.Recording recording = (Rule.Recording) group.rules().get(2);
          assertThat(recording.name()).isEqualTo("drill:one");
          assertThat(recording.query()).isEqualTo("vector(1)");
          assertThat(recording.health()).isEqualTo("ok");

          String yaml = promClient.config();
          assertThat(yaml).contains("evaluation_interval: 1s");
          PrometheusConfig config = PrometheusConfig.parse(yaml);
          assertThat(config.scrapeInterval()).isEqualTo(Duration.ofSeconds(1));
          assertThat(config.evaluationInterval()).isEqualTo(Duration.ofSeconds(1));
          assertThat(config.jobScrapeIntervals())
              .isEqualTo(Map.of("self", Duration.ofSeconds(1), "slow", Duration.ofSeconds(5)));
          assertThat(promClient.parsedConfig()).isEqualTo(config);
        }
      }
    } finally {
      TempDirs.delete(amDir);
      TempDirs.delete(promDir);
    }
  }
}
