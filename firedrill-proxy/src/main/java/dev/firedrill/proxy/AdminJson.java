package dev.firedrill.proxy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.time.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/** The admin API's JSON, shaped like Toxiproxy's. */
final class AdminJson {

  static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Set<String> TOXIC_KEYS =
      Set.of("name", "type", "stream", "toxicity", "attributes", "ttl");

  /**
   * A request the admin API refuses: its message goes back as {@code {"error": ..., "status":
   * 400}}.
   */
  static final class Invalid extends Exception {
    private static final long serialVersionUID = 1L;

    Invalid(String message) {
      super(message);
    }
  }

  private AdminJson() {}

  static String error(int status, String message) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("error", message);
    node.put("status", status);
    return node.toString();
  }

  static ObjectNode toxic(ActiveToxic active) {
    Toxic toxic = active.toxic();
    ObjectNode node = MAPPER.createObjectNode();
    node.put("name", toxic.name());
    node.put("type", toxic.type());
    node.put("stream", toxic.stream().wireName());
    node.put("toxicity", toxic.toxicity());
    ObjectNode attributes = node.putObject("attributes");
    toxic.kind().attributes().forEach((key, value) -> attributes.putPOJO(key, value));
    node.put("ttl", Durations.format(toxic.ttl()));
    Duration remaining = active.remaining();
    node.put(
        "ttl_remaining", Durations.format(Duration.ofSeconds((remaining.toMillis() + 999) / 1000)));
    node.put("ttl_remaining_ms", remaining.toMillis());
    return node;
  }

  /** Reads a toxic from a POST body; {@code tcp} refuses HTTP-only types. */
  static Toxic readToxic(String body, boolean tcp) throws Invalid {
    JsonNode node;
    try {
      node = MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      throw new Invalid("request body is not JSON: " + e.getOriginalMessage());
    }
    if (node == null || !node.isObject()) {
      throw new Invalid(
          "expected a JSON object such as {\"type\": \"latency\", \"attributes\": {\"latency\": 200}, \"ttl\": \"5m\"}");
    }
    unknownKeys(node, TOXIC_KEYS, "");
    String type = text(node, "type", null);
    if (type == null) {
      throw new Invalid("type missing; expected one of " + String.join(", ", ToxicKind.TYPES));
    }
    if (type.equals("reset_peer")) {
      type = "reset"; // Toxiproxy's name
    }
    ToxicStream stream = ToxicStream.parse(text(node, "stream", "downstream"));
    if (stream == null) {
      throw new Invalid(
          "stream " + node.get("stream") + " unknown; expected upstream or downstream");
    }
    double toxicity = 1.0;
    if (node.hasNonNull("toxicity")) {
      if (!node.get("toxicity").isNumber()
          || !(node.get("toxicity").asDouble() >= 0 && node.get("toxicity").asDouble() <= 1)) {
        throw new Invalid(
            "toxicity " + node.get("toxicity") + " out of range; expected a number from 0 to 1");
      }
      toxicity = node.get("toxicity").asDouble();
    }
    JsonNode attributes = node.path("attributes");
    if (!attributes.isMissingNode() && !attributes.isNull() && !attributes.isObject()) {
      throw new Invalid("attributes must be a JSON object");
    }
    ToxicKind kind = kind(type, attributes);
    if (tcp && kind instanceof ToxicKind.Error) {
      throw new Invalid(
          "toxic type error answers an HTTP status; this proxy runs in tcp mode (expected --mode http)");
    }
    String ttlText = text(node, "ttl", null);
    if (ttlText == null) {
      throw new Invalid(
          "ttl missing; this proxy removes every toxic by itself when its ttl ends:"
              + " expected \"ttl\" such as \"5m\"");
    }
    Duration ttl;
    try {
      ttl = Durations.parse(ttlText);
    } catch (IllegalArgumentException e) {
      throw new Invalid("ttl \"" + ttlText + "\": expected a duration such as 30s, 5m or 1h30m");
    }
    if (ttl.isZero()) {
      throw new Invalid("ttl \"" + ttlText + "\": expected a duration longer than 0");
    }
    String name = text(node, "name", Toxic.defaultName(kind, stream));
    if (!Toxic.NAME.matcher(name).matches()) {
      throw new Invalid(
          "name \"" + name + "\": expected 1 to 200 letters, digits, '.', '_' or '-'");
    }
    return new Toxic(name, kind, stream, toxicity, ttl);
  }

  private static ToxicKind kind(String type, JsonNode attributes) throws Invalid {
    return switch (type) {
      case "latency" -> {
        unknownKeys(attributes, Set.of("latency", "jitter"), "attributes.");
        yield new ToxicKind.Latency(
            whole(attributes, "latency", 0, 0), whole(attributes, "jitter", 0, 0));
      }
      case "error" -> {
        unknownKeys(attributes, Set.of("status"), "attributes.");
        long status = whole(attributes, "status", 503, 400);
        if (status > 599) {
          throw new Invalid(
              "attributes.status "
                  + status
                  + " out of range; expected an HTTP error status, 400 to 599");
        }
        yield new ToxicKind.Error((int) status);
      }
      case "reset" -> {
        unknownKeys(attributes, Set.of(), "attributes.");
        yield new ToxicKind.Reset();
      }
      case "timeout" -> {
        unknownKeys(attributes, Set.of("timeout"), "attributes.");
        yield new ToxicKind.Timeout(whole(attributes, "timeout", 0, 0));
      }
      case "bandwidth" -> {
        unknownKeys(attributes, Set.of("rate"), "attributes.");
        if (!attributes.hasNonNull("rate")) {
          throw new Invalid("attributes.rate missing; expected the rate in KB/s, at least 1");
        }
        yield new ToxicKind.Bandwidth(whole(attributes, "rate", 0, 1));
      }
      default ->
          throw new Invalid(
              "type \""
                  + type
                  + "\" unknown; expected one of "
                  + String.join(", ", ToxicKind.TYPES));
    };
  }

  private static long whole(JsonNode attributes, String key, long fallback, long min)
      throws Invalid {
    JsonNode value = attributes.get(key);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (!value.canConvertToExactIntegral() || value.asLong() < min) {
      throw new Invalid(
          "attributes." + key + " " + value + ": expected a whole number of at least " + min);
    }
    return value.asLong();
  }

  private static String text(JsonNode node, String key, String fallback) throws Invalid {
    JsonNode value = node.get(key);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (!value.isTextual()) {
      throw new Invalid(key + " " + value + ": expected a string");
    }
    return value.asText();
  }

  private static void unknownKeys(JsonNode node, Set<String> known, String prefix) throws Invalid {
    if (node == null || !node.isObject()) {
      return;
    }
    List<String> unknown = new ArrayList<>();
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!known.contains(name)) {
        unknown.add(prefix + name);
      }
    }
    if (!unknown.isEmpty()) {
      throw new Invalid(
          "unknown key "
              + String.join(", ", unknown)
              + "; expected "
              + (known.isEmpty()
                  ? "no attributes"
                  : String.join(", ", known.stream().sorted().map(k -> prefix + k).toList())));
    }
  }
}
