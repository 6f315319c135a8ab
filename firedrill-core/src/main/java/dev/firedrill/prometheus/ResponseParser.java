package dev.firedrill.prometheus;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads Prometheus's JSON envelope. Problems are thrown as {@link Malformed} naming what was
 * expected.
 */
final class ResponseParser {

  /** What the envelope says, before the caller decides what the HTTP status means. */
  sealed interface Envelope {}

  record Success(QueryResult result, List<String> warnings) implements Envelope {}

  /** A success envelope whose {@code data} the caller reads (alerts, rules, config). */
  record Data(JsonNode data, List<String> warnings) implements Envelope {}

  record Failure(String errorType, String error) implements Envelope {
    String describe() {
      return errorType.isEmpty() ? error : errorType + ": " + error;
    }
  }

  /** The body is JSON but not an envelope we understand. */
  static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message);
    }
  }

  /** The body is not JSON at all. */
  static final class NotJson extends Exception {
    private static final long serialVersionUID = 1L;

    NotJson(String message) {
      super(message);
    }
  }

  private static final ObjectReader READER =
      new ObjectMapper().reader().with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
  private static final Pattern NUMBER =
      Pattern.compile("[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?");
  private static final String QUERY_PARAMETER_PREFIX = "invalid parameter \"query\": ";

  private ResponseParser() {}

  /** The envelope of any API endpoint, {@code data} left as JSON. */
  static Envelope parseData(String body) throws NotJson, Malformed {
    JsonNode root = root(body);
    Failure failure = failure(root);
    if (failure != null) {
      return failure;
    }
    return new Data(root.path("data"), warnings(root));
  }

  private static JsonNode root(String body) throws NotJson {
    JsonNode root;
    try {
      root = READER.readTree(body);
    } catch (JsonProcessingException e) {
      throw new NotJson("the body is not JSON");
    }
    if (root == null || !root.isObject()) {
      throw new NotJson("the body is not a JSON object");
    }
    return root;
  }

  /** The failure the envelope reports, or null for a success envelope. */
  private static Failure failure(JsonNode root) throws Malformed {
    String status = text(root, "status", "status");
    if ("error".equals(status)) {
      String error = root.path("error").asText("");
      if (error.startsWith(QUERY_PARAMETER_PREFIX)) {
        error = error.substring(QUERY_PARAMETER_PREFIX.length());
      }
      return new Failure(OneLine.of(root.path("errorType").asText("")), OneLine.of(error));
    }
    if (!"success".equals(status)) {
      throw new Malformed("\"status\" is \"" + status + "\" (expected \"success\" or \"error\")");
    }
    return null;
  }

  private static List<String> warnings(JsonNode root) {
    List<String> warnings = new ArrayList<>();
    root.path("warnings").forEach(w -> warnings.add(OneLine.of(w.asText())));
    return warnings;
  }

  static Envelope parse(String body) throws NotJson, Malformed {
    JsonNode root = root(body);
    Failure failure = failure(root);
    if (failure != null) {
      return failure;
    }
    JsonNode data = root.path("data");
    String type = text(data, "resultType", "data.resultType");
    JsonNode result = data.path("result");
    QueryResult parsed =
        switch (type) {
          case "scalar" -> new QueryResult.Scalar(at(result, "scalar"), value(result, "scalar"));
          case "string" -> new QueryResult.Text(at(result, "string"), stringValue(result));
          case "vector" -> vector(result);
          case "matrix" -> matrix(result);
          default ->
              throw new Malformed(
                  "\"data.resultType\" is \""
                      + type
                      + "\" (expected scalar, string, vector or matrix)");
        };
    return new Success(parsed, warnings(root));
  }

  private static QueryResult.Vector vector(JsonNode result) throws Malformed {
    requireArray(result, "vector result");
    List<QueryResult.Sample> samples = new ArrayList<>();
    for (JsonNode sample : result) {
      JsonNode pair = sample.path("value");
      if (pair.isMissingNode() && sample.has("histogram")) {
        throw new Malformed("a vector sample is a native histogram (expected a float sample)");
      }
      samples.add(
          new QueryResult.Sample(
              labels(sample), at(pair, "vector sample"), value(pair, "vector sample")));
    }
    return new QueryResult.Vector(samples);
  }

  private static QueryResult.Matrix matrix(JsonNode result) throws Malformed {
    requireArray(result, "matrix result");
    List<QueryResult.Series> series = new ArrayList<>();
    for (JsonNode one : result) {
      JsonNode values = one.path("values");
      if (values.isMissingNode() && one.has("histograms")) {
        throw new Malformed("a matrix series holds native histograms (expected float samples)");
      }
      requireArray(values, "matrix series \"values\"");
      List<QueryResult.Point> points = new ArrayList<>();
      for (JsonNode pair : values) {
        points.add(new QueryResult.Point(at(pair, "matrix point"), value(pair, "matrix point")));
      }
      series.add(new QueryResult.Series(labels(one), points));
    }
    return new QueryResult.Matrix(series);
  }

  private static Map<String, String> labels(JsonNode sample) throws Malformed {
    JsonNode metric = sample.path("metric");
    if (!metric.isObject()) {
      throw new Malformed("a sample has no \"metric\" object (expected its labels)");
    }
    Map<String, String> labels = new LinkedHashMap<>();
    metric
        .properties()
        .iterator()
        .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
    return labels;
  }

  private static final BigDecimal LATEST_SECONDS = BigDecimal.valueOf(253_402_300_799L);

  private static Instant at(JsonNode pair, String what) throws Malformed {
    requirePair(pair, what);
    JsonNode time = pair.get(0);
    if (!time.isNumber()) {
      throw new Malformed(
          "a " + what + " has timestamp " + time + " (expected seconds as a number)");
    }
    BigDecimal seconds = time.decimalValue();
    // Beyond year 9999 either way is no sample time but a broken server (1e30): a clean error,
    // never an ArithmeticException that ends the drill with no verdict.
    if (seconds.abs().compareTo(LATEST_SECONDS) > 0) {
      throw new Malformed(
          "a "
              + what
              + " has timestamp "
              + OneLine.shortened(time.toString(), 40)
              + " (expected seconds since 1970 before the year 10000)");
    }
    BigDecimal millis = seconds.movePointRight(3).setScale(0, RoundingMode.HALF_UP);
    return Instant.ofEpochMilli(millis.longValueExact());
  }

  private static double value(JsonNode pair, String what) throws Malformed {
    requirePair(pair, what);
    String text = pair.get(1).asText();
    return switch (text) {
      case "NaN" -> Double.NaN;
      case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      default -> {
        if (!pair.get(1).isTextual() && !pair.get(1).isNumber()
            || !NUMBER.matcher(text).matches()) {
          throw new Malformed(
              "a "
                  + what
                  + " has value "
                  + pair.get(1)
                  + " (expected a number, NaN, +Inf or -Inf)");
        }
        yield Double.parseDouble(text);
      }
    };
  }

  private static String stringValue(JsonNode pair) throws Malformed {
    requirePair(pair, "string");
    return pair.get(1).asText();
  }

  private static void requirePair(JsonNode pair, String what) throws Malformed {
    if (!pair.isArray() || pair.size() != 2) {
      throw new Malformed(
          "a "
              + what
              + " is "
              + OneLine.shortened(pair.toString(), 80)
              + " (expected [seconds, \"value\"])");
    }
  }

  private static void requireArray(JsonNode node, String what) throws Malformed {
    if (!node.isArray()) {
      throw new Malformed(
          what + " is " + OneLine.shortened(node.toString(), 80) + " (expected a JSON array)");
    }
  }

  private static String text(JsonNode node, String field, String name) throws Malformed {
    JsonNode value = node.path(field);
    if (!value.isTextual()) {
      throw new Malformed("\"" + name + "\" is missing (expected a string)");
    }
    return value.asText();
  }
}
