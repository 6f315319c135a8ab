package dev.firedrill.embedded.alertmanager.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.embedded.alertmanager.alert.Alert;
import dev.firedrill.embedded.alertmanager.alert.LabelSets;
import dev.firedrill.time.Rfc3339;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Alertmanager's webhook message, version 4, field for field and in its order: receiver, status, alerts,
 * groupLabels, commonLabels, commonAnnotations, externalURL, version, groupKey, truncatedAlerts.
 */
public final class WebhookPayload {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** Go's zero time: what a firing alert's endsAt says. */
  static final String GO_ZERO = "0001-01-01T00:00:00Z";

  private WebhookPayload() {}

  /**
   * The JSON body (with the trailing newline of Go's encoder) for these alerts, cut to {@code maxAlerts}
   * (0 for all) as the webhook notifier cuts them.
   */
  public static byte[] encode(String receiver, String groupKey, SortedMap<String, String> groupLabels,
      List<WebhookAlert> alerts, String externalUrl, int maxAlerts) {
    List<WebhookAlert> sent = maxAlerts > 0 && alerts.size() > maxAlerts ? alerts.subList(0, maxAlerts) : alerts;
    ObjectNode message = JSON.createObjectNode();
    message.put("receiver", LabelSets.quoteMeta(receiver));
    // As Go's model.Alerts.Status(): firing when any alert fires, so an empty list is "resolved".
    message.put("status", sent.stream().anyMatch(a -> !a.resolved()) ? "firing" : "resolved");
    ArrayNode list = message.putArray("alerts");
    for (WebhookAlert each : sent) {
      Alert alert = each.alert();
      ObjectNode node = list.addObject();
      node.put("status", each.resolved() ? "resolved" : "firing");
      put(node.putObject("labels"), alert.labels());
      put(node.putObject("annotations"), alert.annotations());
      node.put("startsAt", Rfc3339.formatNano(alert.startsAt()));
      node.put("endsAt", each.resolved() ? Rfc3339.formatNano(alert.endsAt()) : GO_ZERO);
      node.put("generatorURL", alert.generatorUrl());
      node.put("fingerprint", LabelSets.hex(alert.fingerprint()));
    }
    put(message.putObject("groupLabels"), groupLabels);
    put(message.putObject("commonLabels"), common(sent, true));
    put(message.putObject("commonAnnotations"), common(sent, false));
    message.put("externalURL", externalUrl);
    message.put("version", "4");
    message.put("groupKey", groupKey);
    message.put("truncatedAlerts", alerts.size() - sent.size());
    try {
      return (JSON.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a webhook message of strings cannot fail to encode", e);
    }
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

  private static void put(ObjectNode node, Map<String, String> values) {
    values.forEach(node::put);
  }
}
