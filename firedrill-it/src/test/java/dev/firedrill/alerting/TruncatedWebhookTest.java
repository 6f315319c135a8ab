package dev.firedrill.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.alerting.receiver.ReceiverConfig;
import dev.firedrill.alerting.receiver.WebhookReceiver;
import dev.firedrill.lab.stack.LocalAlertmanager;
import dev.firedrill.lab.stack.TempDirs;
import dev.firedrill.net.Loopback;
import dev.firedrill.testing.Poll;
import dev.firedrill.testing.Stacks;
import dev.firedrill.time.Clock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A real Alertmanager 0.33 whose webhook has {@code max_alerts: 1} cuts a group of three alerts
 * short, and the stack detection reads reports the receiver and the two alerts left out.
 */
class TruncatedWebhookTest {

  @Test
  void aWebhookWithMaxAlertsIsSeenAsTruncated() throws Exception {
    Path binary = Stacks.unpacked("prometheus-alertmanager", "0.3", "prometheus-alertmanager");
    Clock clock = Clock.system();
    Path dir = TempDirs.create("firedrill-am-truncated-");
    try (WebhookReceiver receiver = WebhookReceiver.start(ReceiverConfig.defaults(), clock)) {
      String config =
          """
          route:
            receiver: team-payments
            group_by: [alertname]
            group_wait: 1s
            group_interval: 1s
          receivers:
            - name: team-payments
              webhook_configs:
                - url: '%s'
                  max_alerts: 1
          """
              .formatted(receiver.url());
      try (LocalAlertmanager alertmanager =
          LocalAlertmanager.start(binary, Loopback.freePort(), config, dir, false, clock)) {
        String alerts =
            """
            [{"labels": {"alertname": "PaymentsDown", "instance": "a"}},
             {"labels": {"alertname": "PaymentsDown", "instance": "b"}},
             {"labels": {"alertname": "PaymentsDown", "instance": "c"}}]""";
        HttpResponse<String> posted =
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(URI.create(alertmanager.url() + "/api/v2/alerts"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(alerts))
                        .build(),
                    HttpResponse.BodyHandlers.ofString());
        assertThat(posted.statusCode()).as(posted.body()).isEqualTo(200);
        // The prometheus side is not read here: truncations come from firedrill's receiver alone.
        LiveAlertStack stack = new LiveAlertStack(null, Optional.empty(), Optional.of(receiver));
        List<Truncation> truncations =
            Poll.until(
                "a truncated webhook",
                Duration.ofSeconds(30),
                () -> Optional.of(stack.truncations()).filter(found -> !found.isEmpty()));
        assertThat(truncations.get(0).receiver()).isEqualTo("team-payments");
        assertThat(truncations.get(0).truncatedAlerts()).isEqualTo(2);
        assertThat(stack.deliveries()).hasSize(1);
      }
    } finally {
      TempDirs.delete(dir);
    }
  }
}
