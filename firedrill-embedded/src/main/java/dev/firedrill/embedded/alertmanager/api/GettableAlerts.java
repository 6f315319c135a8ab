package dev.firedrill.embedded.alertmanager.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.alerting.routes.RouteTree;
import dev.firedrill.embedded.alertmanager.alert.Alert;
import dev.firedrill.embedded.alertmanager.alert.LabelSets;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * The answer of {@code GET /api/v2/alerts}, shaped as Alertmanager's: the alerts not yet ended,
 * sorted by fingerprint, each with its receivers (every route it matches), status, times and
 * labels.
 */
final class GettableAlerts {

  private GettableAlerts() {}

  static String render(List<Alert> held, RouteTree routes, AlertQuery query, Instant now) {
    ArrayNode list = Json.MAPPER.createArrayNode();
    held.stream()
        .filter(alert -> !alert.endsAt().isBefore(now))
        .sorted(Comparator.comparing(alert -> LabelSets.hex(alert.fingerprint())))
        .forEach(
            alert -> {
              List<String> receivers = routes.receivers(alert.labels());
              if (query.receiverMatches(receivers)
                  && query.active()
                  && query.labelsMatch(alert.labels())) {
                add(list.addObject(), alert, receivers);
              }
            });
    try {
      return Json.MAPPER.writeValueAsString(list);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("alerts of strings cannot fail to encode", e);
    }
  }

  private static void add(ObjectNode node, Alert alert, List<String> receivers) {
    ObjectNode annotations = node.putObject("annotations");
    alert.annotations().forEach(annotations::put);
    node.put("endsAt", Json.time(alert.endsAt()));
    node.put("fingerprint", LabelSets.hex(alert.fingerprint()));
    ArrayNode names = node.putArray("receivers");
    receivers.forEach(name -> names.addObject().put("name", name));
    node.put("startsAt", Json.time(alert.startsAt()));
    ObjectNode status = node.putObject("status");
    status.putArray("inhibitedBy");
    status.putArray("silencedBy");
    status.put("state", "active");
    node.put("updatedAt", Json.time(alert.updatedAt()));
    if (!alert.generatorUrl().isEmpty()) {
      node.put("generatorURL", alert.generatorUrl());
    }
    ObjectNode labels = node.putObject("labels");
    alert.labels().forEach(labels::put);
  }
}
