package dev.firedrill.prometheus;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.time.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A Grafana-managed rule as Grafana's provisioning API ({@code GET
 * /api/v1/provisioning/alert-rules}) describes it: the details its Prometheus-compatible API leaves
 * out, above all what the rule does when its query returns no data ({@code noDataState}: {@code
 * NoData}, {@code Alerting}, {@code OK} or {@code KeepLast}) or fails ({@code execErrState}: {@code
 * Error}, {@code Alerting}, {@code OK} or {@code KeepLast}).
 */
public record GrafanaRuleDetails(
    String uid,
    String title,
    String condition,
    Optional<Duration> forDuration,
    String noDataState,
    String execErrState) {

  /** Grafana's defaults when a rule leaves the states out. */
  static final String NO_DATA_DEFAULT = "NoData";

  static final String EXEC_ERR_DEFAULT = "Error";

  /** The rules of the provisioning API's JSON array; a rule without uid or title is skipped. */
  static List<GrafanaRuleDetails> parse(JsonNode root) throws ResponseParser.Malformed {
    if (root == null || !root.isArray()) {
      throw new ResponseParser.Malformed("the answer is not a JSON array of alert rules");
    }
    List<GrafanaRuleDetails> rules = new ArrayList<>();
    for (JsonNode rule : root) {
      String uid = rule.path("uid").asText("");
      String title = rule.path("title").asText("");
      if (uid.isEmpty() || title.isEmpty()) {
        continue;
      }
      rules.add(
          new GrafanaRuleDetails(
              uid,
              title,
              rule.path("condition").asText(""),
              duration(rule.path("for")),
              text(rule.path("noDataState"), NO_DATA_DEFAULT),
              text(rule.path("execErrState"), EXEC_ERR_DEFAULT)));
    }
    return rules;
  }

  private static String text(JsonNode node, String fallback) {
    return node.isTextual() && !node.asText().isEmpty() ? node.asText() : fallback;
  }

  /**
   * {@code for} as the provisioning API writes it: a duration string ({@code "2m"}, {@code "5m0s"})
   * or, from some versions, nanoseconds as a number.
   */
  private static Optional<Duration> duration(JsonNode node) {
    if (node.isNumber()) {
      return Optional.of(Duration.ofNanos(node.asLong()));
    }
    if (!node.isTextual()) {
      return Optional.empty();
    }
    return Optional.ofNullable(Durations.parseOrNull(node.asText()));
  }
}
