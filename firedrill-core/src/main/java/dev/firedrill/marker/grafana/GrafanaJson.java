package dev.firedrill.marker.grafana;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The request and response bodies of Grafana's annotations API ({@code POST /api/annotations},
 * {@code PATCH /api/annotations/:id}), as its HTTP API documentation shows them.
 */
final class GrafanaJson {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Grafana's messages are short; anything longer is not a message worth a console line. */
  private static final int MESSAGE_LIMIT = 200;

  private GrafanaJson() {}

  static String create(
      Instant time,
      List<String> tags,
      String text,
      Optional<String> dashboardUid,
      Optional<Integer> panelId) {
    ObjectNode body = MAPPER.createObjectNode();
    dashboardUid.ifPresent(uid -> body.put("dashboardUID", uid));
    panelId.ifPresent(id -> body.put("panelId", id));
    body.put("time", time.toEpochMilli());
    tags(body, tags);
    body.put("text", text);
    return body.toString();
  }

  /**
   * The region's end; with new tags and text when they changed (PATCH replaces the whole tags
   * array).
   */
  static String end(Instant timeEnd, Optional<List<String>> tags, Optional<String> text) {
    ObjectNode body = MAPPER.createObjectNode();
    body.put("timeEnd", timeEnd.toEpochMilli());
    tags.ifPresent(list -> tags(body, list));
    text.ifPresent(t -> body.put("text", t));
    return body.toString();
  }

  /** The {@code id} of {@code {"message":"Annotation added","id":1}}. */
  static OptionalLong id(String body) {
    JsonNode id = parse(body).path("id");
    return id.canConvertToLong() ? OptionalLong.of(id.asLong()) : OptionalLong.empty();
  }

  /**
   * The id of the annotation at {@code time} with {@code text} in {@code GET /api/annotations}'s
   * answer (a JSON array of annotations), if one is there.
   */
  static OptionalLong found(String body, Instant time, String text) {
    for (JsonNode annotation : parse(body)) {
      if (annotation.path("time").asLong(-1) == time.toEpochMilli()
          && annotation.path("text").asText("").equals(text)
          && annotation.path("id").canConvertToLong()) {
        return OptionalLong.of(annotation.path("id").asLong());
      }
    }
    return OptionalLong.empty();
  }

  /** Grafana's {@code message}, shortened; empty when the body has none. */
  static String message(String body) {
    String message = parse(body).path("message").asText("").strip().replaceAll("\\s+", " ");
    return message.length() > MESSAGE_LIMIT ? message.substring(0, MESSAGE_LIMIT) + "..." : message;
  }

  private static void tags(ObjectNode body, List<String> tags) {
    ArrayNode array = body.putArray("tags");
    tags.forEach(array::add);
  }

  private static JsonNode parse(String body) {
    try {
      JsonNode node = MAPPER.readTree(body == null ? "" : body);
      return node == null ? MAPPER.missingNode() : node;
    } catch (java.io.IOException e) {
      return MAPPER.missingNode();
    }
  }
}
