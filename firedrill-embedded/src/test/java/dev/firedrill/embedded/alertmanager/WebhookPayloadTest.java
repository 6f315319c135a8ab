package dev.firedrill.embedded.alertmanager;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.embedded.alertmanager.alert.Alert;
import dev.firedrill.embedded.alertmanager.alert.LabelSets;
import dev.firedrill.embedded.alertmanager.webhook.WebhookAlert;
import dev.firedrill.embedded.alertmanager.webhook.WebhookPayload;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The version 4 payload byte for byte, and the Go model's fingerprints and printing it relies on.
 */
class WebhookPayloadTest {

  private static Alert alert(
      Map<String, String> labels, Map<String, String> annotations, String endsAt) {
    return new Alert(
        new TreeMap<>(labels),
        new TreeMap<>(annotations),
        Instant.parse("2026-01-01T00:00:00.5Z"),
        Instant.parse(endsAt),
        "http://prom/graph",
        Instant.parse("2026-01-01T00:00:01Z"),
        false);
  }

  @Test
  void fingerprintsAreAlertmanagers() {
    // As the real Alertmanager 0.25 answered for these label sets.
    assertThat(
            LabelSets.hex(
                LabelSets.fingerprint(
                    new TreeMap<>(Map.of("alertname", "A", "service", "pay", "team", "payments")))))
        .isEqualTo("038351a44b2b8612");
    assertThat(LabelSets.hex(LabelSets.fingerprint(new TreeMap<>(Map.of("a", "b")))))
        .isEqualTo("d2b371819297f98a");
  }

  @Test
  void labelSetsPrintAsGoDoes() {
    assertThat(LabelSets.goString(new TreeMap<>(Map.of("b", "say \"hi\"\n", "a", "1"))))
        .isEqualTo("{a=\"1\", b=\"say \\\"hi\\\"\\n\"}");
    assertThat(LabelSets.quoteMeta("team.payments(eu)")).isEqualTo("team\\.payments\\(eu\\)");
  }

  @Test
  void thePayloadHasEveryFieldInAlertmanagersOrder() {
    Alert firing =
        alert(
            Map.of("alertname", "Down", "instance", "b"),
            Map.of("summary", "down", "x", "1"),
            "2026-01-01T01:00:00Z");
    Alert resolved =
        alert(
            Map.of("alertname", "Down", "instance", "a"),
            Map.of("summary", "down", "x", "2"),
            "2026-01-01T00:00:30.120Z");
    byte[] payload =
        WebhookPayload.encode(
            "team.pay",
            "{}:{alertname=\"Down\"}",
            new TreeMap<>(Map.of("alertname", "Down")),
            List.of(new WebhookAlert(resolved, true), new WebhookAlert(firing, false)),
            "http://am:9093",
            0);
    assertThat(new String(payload, StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"receiver\":\"team\\\\.pay\",\"status\":\"firing\","
                + "\"alerts\":[{\"status\":\"resolved\",\"labels\":{\"alertname\":\"Down\",\"instance\":\"a\"},"
                + "\"annotations\":{\"summary\":\"down\",\"x\":\"2\"},\"startsAt\":\"2026-01-01T00:00:00.5Z\","
                + "\"endsAt\":\"2026-01-01T00:00:30.12Z\",\"generatorURL\":\"http://prom/graph\",\"fingerprint\":\""
                + LabelSets.hex(resolved.fingerprint())
                + "\"},"
                + "{\"status\":\"firing\",\"labels\":{\"alertname\":\"Down\",\"instance\":\"b\"},"
                + "\"annotations\":{\"summary\":\"down\",\"x\":\"1\"},\"startsAt\":\"2026-01-01T00:00:00.5Z\","
                + "\"endsAt\":\"0001-01-01T00:00:00Z\",\"generatorURL\":\"http://prom/graph\",\"fingerprint\":\""
                + LabelSets.hex(firing.fingerprint())
                + "\"}],"
                + "\"groupLabels\":{\"alertname\":\"Down\"},\"commonLabels\":{\"alertname\":\"Down\"},"
                + "\"commonAnnotations\":{\"summary\":\"down\"},\"externalURL\":\"http://am:9093\",\"version\":\"4\","
                + "\"groupKey\":\"{}:{alertname=\\\"Down\\\"}\",\"truncatedAlerts\":0}\n");
  }

  @Test
  void maxAlertsCutsTheListAndCountsTheRest() {
    Alert a = alert(Map.of("alertname", "A"), Map.of(), "2026-01-01T01:00:00Z");
    Alert b = alert(Map.of("alertname", "B"), Map.of(), "2026-01-01T00:00:10Z");
    String payload =
        new String(
            WebhookPayload.encode(
                "r",
                "k",
                new TreeMap<>(),
                List.of(new WebhookAlert(b, true), new WebhookAlert(a, false)),
                "http://am",
                1),
            StandardCharsets.UTF_8);
    // Only the resolved one is left, so the message is resolved although an alert of the group
    // still fires.
    assertThat(payload)
        .contains("\"status\":\"resolved\",\"alerts\":[{\"status\":\"resolved\"")
        .doesNotContain("\"A\"")
        .endsWith("\"truncatedAlerts\":1}\n");
  }
}
