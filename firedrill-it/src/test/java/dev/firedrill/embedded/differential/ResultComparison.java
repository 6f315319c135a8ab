package dev.firedrill.embedded.differential;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Compares two answers of Prometheus's query API: the same status; for successes the same result
 * type and the same series (by label set, order ignored unless {@code ordered}) with values equal
 * within a relative 1e-9, NaN equal to NaN. Two errors agree whatever their wording.
 */
final class ResultComparison {

  static final double RELATIVE_TOLERANCE = 1e-9;

  /** Below this both values count as zero: sums in another order cancel to different crumbs. */
  private static final double ABSOLUTE_FLOOR = 1e-12;

  private ResultComparison() {}

  /** Empty when the answers agree, else what differs. */
  static Optional<String> difference(JsonNode real, JsonNode embedded) {
    String realStatus = real.path("status").asText();
    String embeddedStatus = embedded.path("status").asText();
    if (!realStatus.equals(embeddedStatus)) {
      return Optional.of(
          "status "
              + realStatus
              + " ("
              + real.path("error").asText()
              + ") vs "
              + embeddedStatus
              + " ("
              + embedded.path("error").asText()
              + ")");
    }
    if (realStatus.equals("error")) {
      return Optional.empty();
    }
    JsonNode realData = real.path("data");
    JsonNode embeddedData = embedded.path("data");
    String type = realData.path("resultType").asText();
    if (!type.equals(embeddedData.path("resultType").asText())) {
      return Optional.of("resultType " + type + " vs " + embeddedData.path("resultType").asText());
    }
    return switch (type) {
      case "scalar", "string" ->
          samePoint("", realData.path("result"), embeddedData.path("result"));
      case "vector" -> sameSeries(realData.path("result"), embeddedData.path("result"), "value");
      case "matrix" -> sameSeries(realData.path("result"), embeddedData.path("result"), "values");
      default -> Optional.of("unknown resultType " + type);
    };
  }

  private static Optional<String> sameSeries(JsonNode real, JsonNode embedded, String field) {
    Map<String, JsonNode> realByLabels = byLabels(real);
    Map<String, JsonNode> embeddedByLabels = byLabels(embedded);
    if (!realByLabels.keySet().equals(embeddedByLabels.keySet())) {
      return Optional.of("series " + realByLabels.keySet() + " vs " + embeddedByLabels.keySet());
    }
    for (Map.Entry<String, JsonNode> entry : realByLabels.entrySet()) {
      JsonNode realSeries = entry.getValue().path(field);
      JsonNode embeddedSeries = embeddedByLabels.get(entry.getKey()).path(field);
      Optional<String> difference =
          field.equals("value")
              ? samePoint(entry.getKey(), realSeries, embeddedSeries)
              : samePoints(entry.getKey(), realSeries, embeddedSeries);
      if (difference.isPresent()) {
        return difference;
      }
    }
    return Optional.empty();
  }

  private static Optional<String> samePoints(String series, JsonNode real, JsonNode embedded) {
    if (real.size() != embedded.size()) {
      return Optional.of(
          series
              + ": "
              + real.size()
              + " points vs "
              + embedded.size()
              + ": "
              + real
              + " vs "
              + embedded);
    }
    for (int i = 0; i < real.size(); i++) {
      Optional<String> difference = samePoint(series, real.get(i), embedded.get(i));
      if (difference.isPresent()) {
        return difference;
      }
    }
    return Optional.empty();
  }

  private static Optional<String> samePoint(String series, JsonNode real, JsonNode embedded) {
    if (real.get(0).asDouble() != embedded.get(0).asDouble()) {
      return Optional.of(series + ": timestamp " + real.get(0) + " vs " + embedded.get(0));
    }
    String realValue = real.get(1).asText();
    String embeddedValue = embedded.get(1).asText();
    if (realValue.equals(embeddedValue) || closeEnough(realValue, embeddedValue)) {
      return Optional.empty();
    }
    return Optional.of(series + " at " + real.get(0) + ": " + realValue + " vs " + embeddedValue);
  }

  static boolean closeEnough(String realValue, String embeddedValue) {
    double a;
    double b;
    try {
      a = parse(realValue);
      b = parse(embeddedValue);
    } catch (NumberFormatException e) {
      return false;
    }
    if (Double.isNaN(a) || Double.isNaN(b)) {
      return Double.isNaN(a) && Double.isNaN(b);
    }
    if (Double.isInfinite(a) || Double.isInfinite(b)) {
      return a == b;
    }
    double scale = Math.max(Math.abs(a), Math.abs(b));
    return Math.abs(a - b) <= Math.max(RELATIVE_TOLERANCE * scale, ABSOLUTE_FLOOR);
  }

  private static double parse(String value) {
    return switch (value) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      case "NaN" -> Double.NaN;
      default -> Double.parseDouble(value);
    };
  }

  private static Map<String, JsonNode> byLabels(JsonNode result) {
    Map<String, JsonNode> byLabels = new TreeMap<>();
    for (JsonNode series : result) {
      Map<String, String> labels = new TreeMap<>();
      Iterator<Map.Entry<String, JsonNode>> fields = series.path("metric").properties().iterator();
      fields.forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
      byLabels.put(labels.toString(), series);
    }
    return byLabels;
  }
}
