package dev.firedrill.embedded.alertmanager.webhook;

import dev.firedrill.alerting.webhook.WebhookJson;
import dev.firedrill.alerting.webhook.WebhookMessage;
import dev.firedrill.embedded.alertmanager.alert.Alert;
import dev.firedrill.embedded.alertmanager.alert.LabelSets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The version 4 message Alertmanager's webhook notifier makes of a flush: the receiver
 * regexp-quoted, the list cut to {@code max_alerts}, the status and the common labels and
 * annotations of what is sent. Its wire form is the model's {@link WebhookJson}, which firedrill's
 * receiver reads.
 */
public final class WebhookPayload {

  private WebhookPayload() {}

  /**
   * The JSON body (with the trailing newline of Go's encoder) for these alerts, cut to {@code
   * maxAlerts} (0 for all) as the webhook notifier cuts them.
   */
  public static byte[] encode(
      String receiver,
      String groupKey,
      SortedMap<String, String> groupLabels,
      List<WebhookAlert> alerts,
      String externalUrl,
      int maxAlerts) {
    List<WebhookAlert> sent =
        maxAlerts > 0 && alerts.size() > maxAlerts ? alerts.subList(0, maxAlerts) : alerts;
    // As Go's model.Alerts.Status(): firing when any alert fires, so an empty list is "resolved".
    String status = sent.stream().anyMatch(a -> !a.resolved()) ? "firing" : "resolved";
    List<WebhookMessage.Alert> wire = sent.stream().map(WebhookPayload::alert).toList();
    return WebhookJson.encode(
        new WebhookMessage(
            LabelSets.quoteMeta(receiver),
            status,
            wire,
            groupLabels,
            common(sent, true),
            common(sent, false),
            externalUrl,
            groupKey,
            alerts.size() - sent.size()));
  }

  private static WebhookMessage.Alert alert(WebhookAlert each) {
    Alert alert = each.alert();
    return new WebhookMessage.Alert(
        each.resolved() ? "resolved" : "firing",
        alert.labels(),
        alert.annotations(),
        alert.startsAt(),
        each.resolved() ? Optional.of(alert.endsAt()) : Optional.empty(),
        alert.generatorUrl(),
        LabelSets.hex(alert.fingerprint()));
  }

  private static SortedMap<String, String> common(List<WebhookAlert> alerts, boolean labels) {
    if (alerts.isEmpty()) {
      return new TreeMap<>();
    }
    SortedMap<String, String> common = new TreeMap<>(pick(alerts.get(0).alert(), labels));
    for (WebhookAlert other : alerts.subList(1, alerts.size())) {
      Map<String, String> values = pick(other.alert(), labels);
      common.entrySet().removeIf(e -> !e.getValue().equals(values.get(e.getKey())));
    }
    return common;
  }

  private static Map<String, String> pick(Alert alert, boolean labels) {
    return labels ? alert.labels() : alert.annotations();
  }
}
