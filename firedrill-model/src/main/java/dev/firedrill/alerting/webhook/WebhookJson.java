package dev.firedrill.alerting.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.format.ControlChars;
import dev.firedrill.format.JsonErrors;
import dev.firedrill.time.Rfc3339;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON of a {@link WebhookMessage}, both ways. Written byte for byte as Alertmanager writes it:
 * every field in its order (receiver, status, alerts, groupLabels, commonLabels, commonAnnotations,
 * externalURL, version, groupKey, truncatedAlerts), times in Go's RFC3339Nano, Go's zero time for a
 * firing alert's endsAt, and the trailing newline of Go's encoder. Read as a receiver must: the
 * fields detection relies on are required and checked, the others may be missing, and fields a
 * later version adds are ignored.
 */
public final class WebhookJson {

  /** Why a body is not a usable message; the message is short and never echoes the body. */
  public static final class Invalid extends Exception {
    private static final long serialVersionUID = 1L;

    Invalid(String message) {
      super(ControlChars.quote(message)); // a value quoted from the body: no escape survives
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private WebhookJson() {}

  /** The body Alertmanager posts for this message. */
  public static byte[] encode(WebhookMessage message) {
    ObjectNode root = JSON.createObjectNode();
    root.put("receiver", message.receiver());
    root.put("status", message.status());
    ArrayNode list = root.putArray("alerts");
    for (WebhookMessage.Alert alert : message.alerts()) {
      ObjectNode node = list.addObject();
      node.put("status", alert.status());
      put(node.putObject("labels"), alert.labels());
      put(node.putObject("annotations"), alert.annotations());
      node.put("startsAt", Rfc3339.formatNano(alert.startsAt()));
      node.put("endsAt", Rfc3339.formatNanoOrZero(alert.endsAt()));
      node.put("generatorURL", alert.generatorUrl());
      node.put("fingerprint", alert.fingerprint());
    }
    put(root.putObject("groupLabels"), message.groupLabels());
    put(root.putObject("commonLabels"), message.commonLabels());
    put(root.putObject("commonAnnotations"), message.commonAnnotations());
    root.put("externalURL", message.externalUrl());
    root.put("version", WebhookMessage.VERSION);
    root.put("groupKey", message.groupKey());
    root.put("truncatedAlerts", message.truncatedAlerts());
    try {
      return (JSON.writeValueAsString(root) + "\n").getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a webhook message of strings cannot fail to encode", e);
    }
  }

  private static void put(ObjectNode node, Map<String, String> values) {
    values.forEach(node::put);
  }

  /**
   * The message of a body, or {@link Invalid} naming the first field that is not as version 4 has
   * it.
   */
  public static WebhookMessage decode(byte[] body) throws Invalid {
    JsonNode root;
    try {
      root = JsonErrors.readTree(JSON, JSON.createParser(body));
    } catch (JsonErrors.Refused e) {
      throw new Invalid(
          (e.limit()
                  ? "the body is past a reading limit: " + e.getMessage()
                  : "the body is not JSON")
              + (e.where().isEmpty() ? "" : " (at " + e.where().substring(1)));
    } catch (IOException e) {
      throw new Invalid("the body could not be read");
    }
    if (root == null || !root.isObject()) {
      throw new Invalid("the body is not a JSON object (expected an Alertmanager webhook payload)");
    }
    JsonNode version = root.get("version");
    if (version == null) {
      throw new Invalid(
          "\"version\" is missing (expected \"4\", Alertmanager's webhook payload version)");
    }
    // Grafana's contact-point webhook sends "1": Alertmanager's fields plus orgId, title, state and
    // message, and per alert silenceURL, dashboardURL, panelURL, values and valueString, which are
    // not read here.
    if (!version.isTextual()
        || !(version.asText().equals(WebhookMessage.VERSION)
            || version.asText().equals(WebhookMessage.GRAFANA_VERSION))) {
      throw new Invalid(
          "\"version\" is "
              + shortJson(version)
              + " (expected \"4\", Alertmanager's, or \"1\", Grafana's contact-point webhook)");
    }
    String receiver = text(root, "receiver", "receiver");
    String status = status(root, "status");
    String groupKey = text(root, "groupKey", "groupKey");
    Map<String, String> groupLabels = optionalStrings(root, "groupLabels", "groupLabels");
    long truncated = 0;
    JsonNode truncatedNode = root.get("truncatedAlerts");
    if (truncatedNode != null && !truncatedNode.isNull()) {
      if (!truncatedNode.canConvertToExactIntegral() || truncatedNode.asLong() < 0) {
        throw new Invalid(
            "\"truncatedAlerts\" is " + shortJson(truncatedNode) + " (expected a count)");
      }
      truncated = truncatedNode.asLong();
    }
    JsonNode alerts = root.get("alerts");
    if (alerts == null || !alerts.isArray()) {
      throw new Invalid(
          "\"alerts\" is "
              + (alerts == null ? "missing" : shortJson(alerts))
              + " (expected an array)");
    }
    List<WebhookMessage.Alert> parsed = new ArrayList<>(alerts.size());
    for (int i = 0; i < alerts.size(); i++) {
      parsed.add(alert(alerts.get(i), "alerts[" + i + "]"));
    }
    return new WebhookMessage(
        receiver,
        status,
        parsed,
        groupLabels,
        optionalStrings(root, "commonLabels", "commonLabels"),
        optionalStrings(root, "commonAnnotations", "commonAnnotations"),
        optionalText(root, "externalURL", "externalURL"),
        groupKey,
        truncated);
  }

  private static WebhookMessage.Alert alert(JsonNode alert, String path) throws Invalid {
    if (!alert.isObject()) {
      throw new Invalid("\"" + path + "\" is " + shortJson(alert) + " (expected an object)");
    }
    String status = status(alert, path + ".status");
    Map<String, String> labels = strings(alert.get("labels"), path + ".labels");
    Map<String, String> annotations = optionalStrings(alert, "annotations", path + ".annotations");
    Instant startsAt =
        time(alert, "startsAt", path)
            .orElseThrow(
                () ->
                    new Invalid(
                        "\""
                            + path
                            + ".startsAt\" is the zero time (expected when the alert started)"));
    Optional<Instant> endsAt = alert.has("endsAt") ? time(alert, "endsAt", path) : Optional.empty();
    String generatorUrl = optionalText(alert, "generatorURL", path + ".generatorURL");
    String fingerprint = text(alert, "fingerprint", path + ".fingerprint");
    return new WebhookMessage.Alert(
        status, labels, annotations, startsAt, endsAt, generatorUrl, fingerprint);
  }

  private static Optional<Instant> time(JsonNode parent, String field, String path) throws Invalid {
    String name = path + "." + field;
    String text = text(parent, field, name);
    try {
      return Rfc3339.parseUnlessZero(text);
    } catch (DateTimeParseException e) {
      throw new Invalid(
          "\"" + name + "\" is " + shortJson(parent.get(field)) + " (expected an RFC 3339 time)");
    }
  }

  private static String status(JsonNode parent, String name) throws Invalid {
    String field = name.contains(".") ? name.substring(name.lastIndexOf('.') + 1) : name;
    String status = text(parent, field, name);
    if (!status.equals("firing") && !status.equals("resolved")) {
      throw new Invalid(
          "\""
              + name
              + "\" is "
              + shortJson(parent.get(field))
              + " (expected \"firing\" or \"resolved\")");
    }
    return status;
  }

  private static String optionalText(JsonNode parent, String field, String name) throws Invalid {
    JsonNode value = parent.get(field);
    return value == null || value.isNull() ? "" : text(parent, field, name);
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

  private static Map<String, String> optionalStrings(JsonNode parent, String field, String name)
      throws Invalid {
    JsonNode value = parent.get(field);
    return value == null || value.isNull() ? Map.of() : strings(value, name);
  }

  private static Map<String, String> strings(JsonNode object, String name) throws Invalid {
    if (object == null || object.isNull()) {
      throw new Invalid("\"" + name + "\" is missing (expected an object of strings)");
    }
    if (!object.isObject()) {
      throw new Invalid(
          "\"" + name + "\" is " + shortJson(object) + " (expected an object of strings)");
    }
    Map<String, String> map = new LinkedHashMap<>();
    var fields = object.properties().iterator();
    while (fields.hasNext()) {
      var field = fields.next();
      if (!field.getValue().isTextual()) {
        throw new Invalid(
            "\""
                + name
                + "."
                + shorten(field.getKey(), 40)
                + "\" is "
                + shortJson(field.getValue())
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
