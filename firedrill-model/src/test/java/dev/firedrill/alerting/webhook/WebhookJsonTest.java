package dev.firedrill.alerting.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** One wire form: what the embedded Alertmanager writes is what the receiver reads back. */
class WebhookJsonTest {

  private static final WebhookMessage MESSAGE =
      new WebhookMessage(
          "team\\.pay",
          "firing",
          List.of(
              new WebhookMessage.Alert(
                  "resolved",
                  Map.of("instance", "a", "alertname", "Down"),
                  Map.of("summary", "down"),
                  Instant.parse("2026-01-01T00:00:00.5Z"),
                  Optional.of(Instant.parse("2026-01-01T00:00:30.120Z")),
                  "http://prom/graph",
                  "0123456789abcdef"),
              new WebhookMessage.Alert(
                  "firing",
                  Map.of("alertname", "Down", "instance", "b"),
                  Map.of(),
                  Instant.parse("2026-01-01T00:00:00Z"),
                  Optional.empty(),
                  "",
                  "fedcba9876543210")),
          Map.of("alertname", "Down"),
          Map.of("alertname", "Down"),
          Map.of(),
          "http://am:9093",
          "{}:{alertname=\"Down\"}",
          2);

  @Test
  void whatIsWrittenReadsBackTheSame() throws Exception {
    byte[] body = WebhookJson.encode(MESSAGE);
    assertThat(new String(body, StandardCharsets.UTF_8))
        .startsWith(
            "{\"receiver\":\"team\\\\.pay\",\"status\":\"firing\",\"alerts\":[{\"status\":\"resolved\","
                + "\"labels\":{\"alertname\":\"Down\",\"instance\":\"a\"}")
        .contains("\"endsAt\":\"2026-01-01T00:00:30.12Z\"", "\"endsAt\":\"0001-01-01T00:00:00Z\"")
        .endsWith(
            "\"externalURL\":\"http://am:9093\",\"version\":\"4\",\"groupKey\":\"{}:{alertname=\\\"Down\\\"}\","
                + "\"truncatedAlerts\":2}\n");
    assertThat(WebhookJson.decode(body)).isEqualTo(MESSAGE);
  }

  @Test
  void aReaderNeedsOnlyTheFieldsDetectionReliesOn() throws Exception {
    WebhookMessage read =
        WebhookJson.decode(
            ("{\"version\":\"4\",\"receiver\":\"r\",\"status\":\"resolved\","
                    + "\"groupKey\":\"k\",\"alerts\":[{\"status\":\"resolved\",\"labels\":{},\"startsAt\":\"2026-01-01T00:00:00Z\","
                    + "\"fingerprint\":\"f\",\"later\":1}],\"later\":{}}")
                .getBytes(StandardCharsets.UTF_8));
    assertThat(read)
        .isEqualTo(
            new WebhookMessage(
                "r",
                "resolved",
                List.of(
                    new WebhookMessage.Alert(
                        "resolved",
                        Map.of(),
                        Map.of(),
                        Instant.parse("2026-01-01T00:00:00Z"),
                        Optional.empty(),
                        "",
                        "f")),
                Map.of(),
                Map.of(),
                Map.of(),
                "",
                "k",
                0));
    assertThatThrownBy(
            () -> WebhookJson.decode("{\"version\":\"3\"}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(WebhookJson.Invalid.class)
        .hasMessage(
            "\"version\" is \"3\" (expected \"4\", Alertmanager's, or \"1\", Grafana's contact-point webhook)");
  }

  /**
   * Grafana's contact-point webhook (its documentation's example shape, version "1"): the
   * Alertmanager fields are read, Grafana's additions (orgId, title, state, message, silenceURL,
   * values, ...) do not make it invalid.
   */
  @Test
  void readsGrafanasContactPointWebhook() throws Exception {
    WebhookMessage read =
        WebhookJson.decode(
            java.nio.file.Files.readAllBytes(
                java.nio.file.Path.of("fixtures/alerting/webhook-grafana-v1.json")));
    assertThat(read.receiver()).isEqualTo("firedrill webhook");
    assertThat(read.firing()).isTrue();
    assertThat(read.alerts()).hasSize(1);
    WebhookMessage.Alert alert = read.alerts().get(0);
    assertThat(alert.alertname()).isEqualTo("Checkout error ratio high");
    assertThat(alert.startsAt()).isEqualTo(Instant.parse("2024-05-14T07:12:00.157076Z"));
    assertThat(alert.endsAt()).isEmpty();
    assertThat(alert.fingerprint()).isEqualTo("c6eadffa33fcdf37");
    assertThat(alert.annotations())
        .containsEntry("runbook_url", "https://runbooks.example.com/checkout-errors");
  }
}
