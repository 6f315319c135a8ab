package dev.firedrill.prometheus;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.time.Rfc3339;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the {@code data} of {@code /api/v1/alerts}, {@code /api/v1/rules}, {@code
 * /api/v1/status/config} and {@code /api/v1/status/buildinfo}, as Prometheus 2.x and 3.x write
 * them. Fields either version adds ({@code keepFiringFor}, {@code evaluationTime}, {@code limit},
 * {@code groupNextToken}, ...) are ignored.
 */
final class ApiParser {

  private ApiParser() {}

  static List<PrometheusAlert> alerts(JsonNode data) throws ResponseParser.Malformed {
    JsonNode alerts = data.path("alerts");
    requireArray(alerts, "data.alerts");
    return alertList(alerts, "data.alerts");
  }

  static List<RuleGroup> rules(JsonNode data) throws ResponseParser.Malformed {
    JsonNode groups = data.path("groups");
    requireArray(groups, "data.groups");
    List<RuleGroup> parsed = new ArrayList<>(groups.size());
    for (int g = 0; g < groups.size(); g++) {
      JsonNode group = groups.get(g);
      String path = "data.groups[" + g + "]";
      JsonNode rules = group.path("rules");
      requireArray(rules, path + ".rules");
      List<Rule> parsedRules = new ArrayList<>(rules.size());
      for (int r = 0; r < rules.size(); r++) {
        parsedRules.add(rule(rules.get(r), path + ".rules[" + r + "]"));
      }
      parsed.add(
          new RuleGroup(
              text(group, "name", path),
              group.path("file").asText(""),
              seconds(group, "interval", path),
              parsedRules));
    }
    return parsed;
  }

  static String config(JsonNode data) throws ResponseParser.Malformed {
    return text(data, "yaml", "data");
  }

  static String buildVersion(JsonNode data) throws ResponseParser.Malformed {
    return text(data, "version", "data");
  }

  private static Rule rule(JsonNode rule, String path) throws ResponseParser.Malformed {
    String type = text(rule, "type", path);
    String name = text(rule, "name", path);
    String query = text(rule, "query", path);
    Map<String, String> labels = strings(rule.get("labels"), path + ".labels");
    String health = rule.path("health").asText("unknown");
    Optional<String> lastError =
        Optional.ofNullable(rule.get("lastError"))
            .map(JsonNode::asText)
            .filter(e -> !e.isEmpty())
            .map(OneLine::of);
    Optional<Instant> lastEvaluation =
        rule.hasNonNull("lastEvaluation") ? time(rule, "lastEvaluation", path) : Optional.empty();
    return switch (type) {
      case "alerting" ->
          new Rule.Alerting(
              name,
              query,
              seconds(rule, "duration", path),
              labels,
              strings(rule.get("annotations"), path + ".annotations"),
              health,
              lastError,
              lastEvaluation,
              text(rule, "state", path),
              rule.hasNonNull("alerts")
                  ? alertList(rule.get("alerts"), path + ".alerts")
                  : List.of(),
              Optional.of(rule.path("uid").asText("")).filter(uid -> !uid.isEmpty()));
      case "recording" ->
          new Rule.Recording(name, query, labels, health, lastError, lastEvaluation);
      default ->
          throw new ResponseParser.Malformed(
              "\""
                  + path
                  + ".type\" is \""
                  + OneLine.shortened(type, 40)
                  + "\" (expected alerting or recording)");
    };
  }

  private static List<PrometheusAlert> alertList(JsonNode alerts, String path)
      throws ResponseParser.Malformed {
    requireArray(alerts, path);
    List<PrometheusAlert> parsed = new ArrayList<>(alerts.size());
    for (int i = 0; i < alerts.size(); i++) {
      JsonNode alert = alerts.get(i);
      String at = path + "[" + i + "]";
      Optional<Instant> activeAt =
          alert.hasNonNull("activeAt") ? time(alert, "activeAt", at) : Optional.empty();
      parsed.add(
          new PrometheusAlert(
              strings(alert.get("labels"), at + ".labels"),
              strings(alert.get("annotations"), at + ".annotations"),
              text(alert, "state", at),
              activeAt,
              alert.path("value").asText("")));
    }
    return parsed;
  }

  /** Seconds as a JSON number ({@code 300}, {@code 0.5}); missing means zero. */
  private static Duration seconds(JsonNode parent, String field, String path)
      throws ResponseParser.Malformed {
    JsonNode value = parent.get(field);
    if (value == null || value.isNull()) {
      return Duration.ZERO;
    }
    if (!value.isNumber()) {
      throw new ResponseParser.Malformed(
          "\""
              + path
              + "."
              + field
              + "\" is "
              + OneLine.shortened(value.toString(), 40)
              + " (expected seconds as a number)");
    }
    BigDecimal nanos = value.decimalValue().movePointRight(9);
    if (nanos.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      throw new ResponseParser.Malformed(
          "\""
              + path
              + "."
              + field
              + "\" is "
              + OneLine.shortened(value.toString(), 40)
              + " (expected seconds that fit in 292 years)");
    }
    return Duration.ofNanos(nanos.longValue());
  }

  private static Optional<Instant> time(JsonNode parent, String field, String path)
      throws ResponseParser.Malformed {
    String text = text(parent, field, path);
    try {
      return Rfc3339.parseUnlessZero(text);
    } catch (DateTimeParseException e) {
      throw new ResponseParser.Malformed(
          "\""
              + path
              + "."
              + field
              + "\" is \""
              + OneLine.shortened(text, 40)
              + "\" (expected an RFC 3339 time)");
    }
  }

  private static String text(JsonNode parent, String field, String path)
      throws ResponseParser.Malformed {
    JsonNode value = parent.get(field);
    if (value == null || !value.isTextual()) {
      throw new ResponseParser.Malformed(
          "\""
              + path
              + "."
              + field
              + "\" is "
              + (value == null ? "missing" : OneLine.shortened(value.toString(), 40))
              + " (expected a string)");
    }
    return value.asText();
  }

  /** Labels or annotations; missing or null is empty (Prometheus omits empty ones in places). */
  private static Map<String, String> strings(JsonNode object, String path)
      throws ResponseParser.Malformed {
    Map<String, String> map = new LinkedHashMap<>();
    if (object == null || object.isNull()) {
      return map;
    }
    if (!object.isObject()) {
      throw new ResponseParser.Malformed(
          "\""
              + path
              + "\" is "
              + OneLine.shortened(object.toString(), 40)
              + " (expected an object of strings)");
    }
    object
        .properties()
        .iterator()
        .forEachRemaining(e -> map.put(e.getKey(), e.getValue().asText()));
    return map;
  }

  private static void requireArray(JsonNode node, String path) throws ResponseParser.Malformed {
    if (!node.isArray()) {
      throw new ResponseParser.Malformed(
          "\""
              + path
              + "\" is "
              + (node.isMissingNode() ? "missing" : OneLine.shortened(node.toString(), 40))
              + " (expected a JSON array)");
    }
  }
}
