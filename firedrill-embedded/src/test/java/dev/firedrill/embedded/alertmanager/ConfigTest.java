package dev.firedrill.embedded.alertmanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.embedded.alertmanager.config.AlertmanagerConfig;
import dev.firedrill.embedded.alertmanager.config.ConfigException;
import dev.firedrill.embedded.alertmanager.config.WebhookConfig;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What the embedded Alertmanager runs, and what it refuses by name. */
class ConfigTest {

  private static final String ROUTE =
      """
      route:
        receiver: a
      """;

  private static String refusal(String yaml) {
    return assertThatThrownBy(() -> AlertmanagerConfig.parse("alertmanager.yml", yaml))
        .isInstanceOf(ConfigException.class)
        .actual()
        .getMessage();
  }

  @Test
  void theLabsConfigLoadsWithItsWebhooks() throws Exception {
    AlertmanagerConfig config = AlertmanagerConfig.load(Path.of("fixtures/lab/alertmanager.yml"));
    assertThat(config.receivers().keySet())
        .containsExactly("unrouted", "team-payments", "team-checkout");
    assertThat(config.receivers().get("team-payments").webhooks())
        .containsExactly(
            new WebhookConfig(URI.create("http://127.0.0.1:19101/team-payments"), true, 0));
    assertThat(config.resolveTimeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(config.routes().root().options().groupInterval()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void webhookOptionsAndResolveTimeoutAreRead() throws Exception {
    AlertmanagerConfig config =
        AlertmanagerConfig.parse(
            "alertmanager.yml",
            ROUTE
                + """
        global:
          resolve_timeout: 90s
        receivers:
          - name: a
            webhook_configs:
              - url: https://hooks.example/a
                send_resolved: false
                max_alerts: 3
        inhibit_rules: []
        """);
    assertThat(config.resolveTimeout()).isEqualTo(Duration.ofSeconds(90));
    assertThat(config.receivers().get("a").webhooks())
        .containsExactly(new WebhookConfig(URI.create("https://hooks.example/a"), false, 3));
  }

  @Test
  void otherReceiverKindsAreRefusedByName() {
    assertThat(
            refusal(
                ROUTE
                    + """
        receivers:
          - name: a
          - name: b
            email_configs:
              - to: x@example.com
        """))
        .isEqualTo(
            "alertmanager.yml: /receivers/1/email_configs: not supported by the embedded Alertmanager "
                + "(only webhook_configs) (line 6, column 5)");
  }

  @Test
  void inhibitRulesAndOtherGlobalKeysAreRefusedByName() {
    assertThat(
            refusal(
                ROUTE
                    + """
        receivers:
          - name: a
        inhibit_rules:
          - source_matchers: ['severity="page"']
            target_matchers: ['severity="ticket"']
        """))
        .isEqualTo(
            "alertmanager.yml: /inhibit_rules: not supported by the embedded Alertmanager (it does no "
                + "inhibition; remove the section, or run the real prometheus-alertmanager) (line 5, column 1)");
    assertThat(
            refusal(
                ROUTE
                    + """
        global:
          smtp_smarthost: mail:25
        receivers:
          - name: a
        """))
        .isEqualTo(
            "alertmanager.yml: /global/smtp_smarthost: not supported by the embedded Alertmanager "
                + "(only resolve_timeout) (line 4, column 3)");
  }

  @Test
  void webhookKeysBeyondUrlSendResolvedAndMaxAlertsAreRefused() {
    assertThat(
            refusal(
                ROUTE
                    + """
        receivers:
          - name: a
            webhook_configs:
              - url: http://127.0.0.1:1/x
                http_config:
                  bearer_token: secret
        """))
        .isEqualTo(
            "alertmanager.yml: /receivers/0/webhook_configs/0/http_config: not supported by the embedded "
                + "Alertmanager (only url, send_resolved, max_alerts) (line 7, column 9)");
    assertThat(
            refusal(
                ROUTE
                    + """
        receivers:
          - name: a
            webhook_configs:
              - send_resolved: true
        """))
        .isEqualTo(
            "alertmanager.yml: /receivers/0/webhook_configs/0/url: missing; expected the webhook's URL, "
                + "such as http://127.0.0.1:9000/alerts (line 6, column 9)");
  }

  @Test
  void routeProblemsComeFromTheRoutesLoaderAndCountTheRest() {
    assertThat(
            refusal(
                """
        route:
          receiver: nobody
          group_wait: soon
        receivers:
          - name: a
            pagerduty_configs: [{service_key: x}]
        """))
        .isEqualTo(
            "alertmanager.yml: /route/receiver: undefined receiver \"nobody\"; expected one of the "
                + "receivers: a (line 2, column 3) (and 2 more problems)");
  }

  @Test
  void aFileWithoutReceiversHasNoneToRouteTo() {
    assertThat(refusal(ROUTE))
        .isEqualTo(
            "alertmanager.yml: /route/receiver: undefined receiver \"a\" (the file "
                + "defines no receivers; expected a receivers section) (line 2, column 3)");
  }

  @Test
  void timeIntervalsOnRoutesAreRefused() {
    assertThat(
            refusal(
                """
        route:
          receiver: a
          routes:
            - receiver: a
              mute_time_intervals: [nights]
        time_intervals:
          - name: nights
            time_intervals: [{times: [{start_time: '00:00', end_time: '06:00'}]}]
        receivers:
          - name: a
        """))
        .startsWith(
            "alertmanager.yml: /route/routes/0/mute_time_intervals: not supported by the embedded "
                + "Alertmanager (it has no time intervals)");
  }

  @Test
  void anUnreadableFileIsOneLine() {
    assertThatThrownBy(() -> AlertmanagerConfig.load(Path.of("no/such/alertmanager.yml")))
        .hasMessage("no/such/alertmanager.yml: /: cannot read: no such file");
  }
}
