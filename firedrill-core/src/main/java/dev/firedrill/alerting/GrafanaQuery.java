package dev.firedrill.alerting;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A Grafana-managed rule's queries, as Grafana's {@code /api/prometheus/grafana/api/v1/rules}
 * writes its {@code query}: a JSON array of the rule's data queries and server-side expressions
 * ({@code datasourceUid "__expr__"}). Floors can be worked out only where the rule is the shape
 * Prometheus would write as one comparison: a single PromQL data query ({@code model.expr}),
 * optionally reduced, then one threshold ({@code gt} or {@code lt}) on it.
 */
final class GrafanaQuery {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String EXPRESSION_SOURCE = "__expr__";

  private GrafanaQuery() {}

  /** Whether {@code query} is Grafana's JSON array of queries rather than PromQL. */
  static boolean isGrafana(String query) {
    return query.stripLeading().startsWith("[");
  }

  /**
   * The PromQL comparison the rule amounts to ({@code (expr) > 0.05}), or empty with why not in
   * {@code why}.
   */
  static Optional<String> asPromql(String query, List<String> why) {
    JsonNode root;
    try {
      root = JSON.readTree(query);
    } catch (JsonProcessingException e) {
      why.add("its queries are not JSON");
      return Optional.empty();
    }
    if (root == null || !root.isArray()) {
      why.add("its queries are not a JSON array");
      return Optional.empty();
    }
    List<JsonNode> data = new ArrayList<>();
    List<JsonNode> expressions = new ArrayList<>();
    for (JsonNode q : root) {
      (EXPRESSION_SOURCE.equals(q.path("datasourceUid").asText()) ? expressions : data).add(q);
    }
    if (data.size() != 1 || !data.get(0).path("model").path("expr").isTextual()) {
      why.add(
          "it is not one PromQL data query (it has "
              + data.size()
              + " data quer"
              + (data.size() == 1 ? "y without a PromQL expr" : "ies")
              + ")");
      return Optional.empty();
    }
    String expr = data.get(0).path("model").path("expr").asText();
    Map<String, String> operators = Map.of("gt", ">", "lt", "<");
    Optional<String> comparison = Optional.empty();
    for (JsonNode e : expressions) {
      String type = e.path("model").path("type").asText();
      if (type.equals("reduce") || type.equals("resample")) {
        continue;
      }
      JsonNode evaluator = e.path("model").path("conditions").path(0).path("evaluator");
      String op = operators.get(evaluator.path("type").asText());
      if (!type.equals("threshold")
          || op == null
          || !evaluator.path("params").path(0).isNumber()
          || comparison.isPresent()) {
        why.add(
            "its condition is not one gt or lt threshold (it has a "
                + (type.isEmpty() ? "classic condition" : type + " expression")
                + ")");
        return Optional.empty();
      }
      comparison = Optional.of(op + " " + evaluator.path("params").path(0).asText());
    }
    if (comparison.isEmpty()) {
      // No threshold: Grafana fires on a non-zero result, as a PromQL rule fires on any sample.
      return Optional.of(expr);
    }
    return Optional.of("(" + expr + ") " + comparison.get());
  }
}
