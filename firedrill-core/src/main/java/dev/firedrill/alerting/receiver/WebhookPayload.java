package dev.firedrill.alerting.receiver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.firedrill.time.Rfc3339;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads Alertmanager's webhook payload version 4 into a {@link Notification}. Unknown fields
 * ({@code commonLabels}, {@code externalURL}, {@code generatorURL}, whatever a later version adds)
 * are ignored; the fields detection relies on are required and checked.
 */
final class WebhookPayload {

  /** Why a body is not a usable payload; the message is short and never echoes the body. */
  static final class Invalid extends Exception {
    private static final long serialVersionUID = 1L;

    Invalid(String message) {
      super(message);
    }
  }

  private static final ObjectReader READER = new ObjectMapper().reader();

  private WebhookPayload() {}

  static Notification parse(byte[] body, Instant receivedAt) throws Invalid {
    JsonNode root;
    try {
      root = READER.readTree(body);
    } catch (JsonProcessingException e) {
      throw new Invalid("the body is not JSON (at line " + e.getLocation().getLineNr()
          + ", column " + e.getLocation().getColumnNr() + ")");
    } catch (IOException e) {
      throw new Invalid("the body could not be read");
    }
    if (root == null || !root.isObject()) {
      throw new Invalid("the body is not a JSON object (expected an Alertmanager webhook payload)");
    }
    JsonNode version = root.get("version");
    if (version == null) {
      throw new Invalid("\"version\" is missing (expected \"4\", Alertmanager's webhook payload version)");
    }
    if (!version.isTextual() || !version.asText().equals("4")) {
      throw new Invalid("\"version\" is " + shortJson(version) + " (expected \"4\")");
    }
    String receiver = text(root, "receiver", "receiver");
    String status = status(root, "status");
    String groupKey = text(root, "groupKey", "groupKey");
    Map<String, String> groupLabels = root.has("groupLabels")
        ? strings(root.get("groupLabels"), "groupLabels") : Map.of();
    long truncated = 0;
    JsonNode truncatedNode = root.get("truncatedAlerts");
    if (truncatedNode != null && !truncatedNode.isNull()) {
      if (!truncatedNode.canConvertToExactIntegral() || truncatedNode.asLong() < 0) {
        throw new Invalid("\"truncatedAlerts\" is " + shortJson(truncatedNode) + " (expected a count)");
      }
      truncated = truncatedNode.asLong();
    }
    JsonNode alerts = root.get("alerts");
    if (alerts == null || !alerts.isArray()) {
      throw new Invalid("\"alerts\" is " + (alerts == null ? "missing" : shortJson(alerts)) + " (expected an array)");
    }
    List<NotifiedAlert> parsed = new ArrayList<>(alerts.size());
    for (int i = 0; i < alerts.size(); i++) {
      parsed.add(alert(alerts.get(i), "alerts[" + i + "]"));
    }
    return new Notification(receivedAt, receiver, status, groupKey, groupLabels, parsed, truncated);
  }

  private static NotifiedAlert alert(JsonNode alert, String path) throws Invalid {
    if (!alert.isObject()) {
      throw new Invalid("\"" + path + "\" is " + shortJson(alert) + " (expected an object)");
    }
    String status = status(alert, path + ".status");
    Map<String, String> labels = strings(alert.get("labels"), path + ".labels");
    Map<String, String> annotations = alert.has("annotations") && !alert.get("annotations").isNull()
        ? strings(alert.get("annotations"), path + ".annotations") : Map.of();
    Instant startsAt = time(alert, "startsAt", path)
        .orElseThrow(() -> new Invalid("\"" + path + ".startsAt\" is the zero time (expected when the alert started)"));
    Optional<Instant> endsAt = alert.has("endsAt") ? time(alert, "endsAt", path) : Optional.empty();
    String fingerprint = text(alert, "fingerprint", path + ".fingerprint");
    return new NotifiedAlert(status, labels, annotations, startsAt, endsAt, fingerprint);
  }

  private static Optional<Instant> time(JsonNode parent, String field, String path) throws Invalid {
    String name = path + "." + field;
    String text = text(parent, field, name);
    try {
      return Rfc3339.parseUnlessZero(text);
    } catch (DateTimeParseException e) {
      throw new Invalid("\"" + name + "\" is " + shortJson(parent.get(field)) + " (expected an RFC 3339 time)");
    }
  }

  private static String status(JsonNode parent, String name) throws Invalid {
    String field = name.contains(".") ? name.substring(name.lastIndexOf('.') + 1) : name;
    String status = text(parent, field, name);
    if (!status.equals("firing") && !status.equals("resolved")) {
      throw new Invalid("\"" + name + "\" is " + shortJson(parent.get(field)) + " (expected \"firing\" or \"resolved\")");
    }
    return status;
  }

  private static String text(JsonNode parent, String field, String name) throws Invalid {
    JsonNode value = parent.get(field);
    if (value == null || value.isNull()) {
      throw new Invalid("\"" + name + "\" is missing (expected a string)");
    }
    if (!value.isTextual()) {
      throw new Invalid("\"" + name + "\" is " + shortJson(value) + " (expected a string)");
    }
    return value.asText();
  }

  private static Map<String, String> strings(JsonNode object, String name) throws Invalid {
    if (object == null || object.isNull()) {
      throw new Invalid("\"" + name + "\" is missing (expected an object of strings)");
    }
    if (!object.isObject()) {
      throw new Invalid("\"" + name + "\" is " + shortJson(object) + " (expected an object of strings)");
    }
    Map<String, String> map = new LinkedHashMap<>();
    var fields = object.properties().iterator();
    while (fields.hasNext()) {
      var field = fields.next();
      if (!field.getValue().isTextual()) {
        throw new Invalid("\"" + name + "." + shorten(field.getKey(), 40) + "\" is " + shortJson(field.getValue())
            + " (expected a string)");
      }
      map.put(field.getKey(), field.getValue().asText());
    }
    return map;
  }

  private static String shortJson(JsonNode node) {
    if (node.isContainerNode()) {
      return node.isArray() ? "an array" : "an object";
    }
    return shorten(node.toString(), 40);
  }

  private static String shorten(String text, int limit) {
    String line = text.replaceAll("\\p{Cntrl}", "?");
    return line.length() <= limit ? line : line.substring(0, limit) + "...";
  }
}
