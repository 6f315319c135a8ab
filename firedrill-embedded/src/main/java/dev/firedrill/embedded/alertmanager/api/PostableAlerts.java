package dev.firedrill.embedded.alertmanager.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.embedded.alertmanager.alert.Alert;
import dev.firedrill.embedded.alertmanager.alert.LabelSets;
import dev.firedrill.time.Rfc3339;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The body of {@code POST /api/v2/alerts}, handled as Alertmanager 0.25 does: a body that is not a
 * list of alerts is refused whole (400; 422 for a missing {@code labels} or a {@code generatorURL}
 * that is not a URI); then each alert gets {@code updatedAt} now, a missing {@code startsAt}
 * becomes now (or {@code endsAt} when only that is set), a missing {@code endsAt} becomes now +
 * {@code resolve_timeout}, empty labels are dropped, and the alerts that fail validation are left
 * out and named in a 400 while the others are kept.
 */
final class PostableAlerts {

  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  /** The alerts to keep, and why the others were refused (empty when all were kept). */
  record Outcome(List<Alert> valid, List<String> errors) {}

  private PostableAlerts() {}

  static Outcome read(byte[] body, Instant now, Duration resolveTimeout) throws ApiError {
    JsonNode root;
    try {
      root = Json.MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      throw parsing(e.getOriginalMessage());
    } catch (IOException e) {
      throw parsing(e.getMessage());
    }
    if (root == null || !root.isArray()) {
      throw parsing("expected a JSON array of alerts");
    }
    List<Alert> valid = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    List<Alert> read = new ArrayList<>();
    for (int i = 0; i < root.size(); i++) {
      read.add(alert(root.get(i), i, now, resolveTimeout));
    }
    for (Alert alert : read) {
      Optional<String> problem = validate(alert);
      if (problem.isPresent()) {
        errors.add(problem.get());
      } else {
        valid.add(alert);
      }
    }
    return new Outcome(valid, errors);
  }

  private static Alert alert(JsonNode node, int i, Instant now, Duration resolveTimeout)
      throws ApiError {
    if (!node.isObject()) {
      throw parsing("alert " + i + " is not a JSON object");
    }
    JsonNode labelsNode = node.get("labels");
    if (labelsNode == null || labelsNode.isNull()) {
      throw ApiError.swagger(422, 602, i + ".labels in body is required");
    }
    SortedMap<String, String> labels = strings(labelsNode, i, "labels");
    labels.values().removeIf(String::isEmpty);
    SortedMap<String, String> annotations =
        node.hasNonNull("annotations")
            ? strings(node.get("annotations"), i, "annotations")
            : new TreeMap<>();
    Optional<Instant> startsAt = time(node, i, "startsAt");
    Optional<Instant> endsAt = time(node, i, "endsAt");
    String generatorUrl = "";
    if (node.hasNonNull("generatorURL")) {
      JsonNode url = node.get("generatorURL");
      if (!url.isTextual()) {
        throw parsing("alert " + i + ": generatorURL is not a string");
      }
      generatorUrl = url.asText();
      try {
        new URI(generatorUrl);
      } catch (URISyntaxException e) {
        throw ApiError.swagger(
            422,
            601,
            i + ".generatorURL in body must be of type uri: " + Json.string(generatorUrl));
      }
    }
    Instant start = startsAt.orElse(endsAt.orElse(now));
    boolean timeout = endsAt.isEmpty();
    Instant end = endsAt.orElse(now.plus(resolveTimeout));
    return new Alert(labels, annotations, start, end, generatorUrl, now, timeout);
  }

  /** Prometheus' {@code model.Alert.Validate}, in its order. */
  private static Optional<String> validate(Alert alert) {
    if (alert.endsAt().isBefore(alert.startsAt())) {
      return Optional.of("start time must be before end time");
    }
    Optional<String> name = invalidName(alert.labels());
    if (name.isPresent()) {
      return Optional.of("invalid label set: invalid name " + LabelSets.goQuote(name.get()));
    }
    if (alert.labels().isEmpty()) {
      return Optional.of("at least one label pair required");
    }
    return invalidName(alert.annotations())
        .map(n -> "invalid annotations: invalid name " + LabelSets.goQuote(n));
  }

  private static Optional<String> invalidName(Map<String, String> labels) {
    return labels.keySet().stream().filter(n -> !LABEL_NAME.matcher(n).matches()).findFirst();
  }

  private static SortedMap<String, String> strings(JsonNode node, int i, String field)
      throws ApiError {
    if (!node.isObject()) {
      throw parsing("alert " + i + ": " + field + " is not an object of strings");
    }
    SortedMap<String, String> map = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      if (!entry.getValue().isTextual()) {
        throw parsing("alert " + i + ": " + field + "." + entry.getKey() + " is not a string");
      }
      map.put(entry.getKey(), entry.getValue().asText());
    }
    return map;
  }

  /** Empty when absent, null or Go's zero time, as Alertmanager treats all three. */
  private static Optional<Instant> time(JsonNode node, int i, String field) throws ApiError {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    if (!value.isTextual()) {
      throw parsing("alert " + i + ": " + field + " is not an RFC 3339 time");
    }
    try {
      return Rfc3339.parseUnlessZero(value.asText());
    } catch (DateTimeParseException e) {
      throw parsing(
          "alert "
              + i
              + ": "
              + field
              + " "
              + Json.string(value.asText())
              + " is not an RFC 3339 time");
    }
  }

  private static ApiError parsing(String why) {
    return ApiError.swagger(400, 400, "parsing alerts body from \"\" failed, because " + why);
  }
}
