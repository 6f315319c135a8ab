package dev.firedrill.embedded.api;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/** {@code /api/v1/alerts} and {@code /api/v1/rules}, field for field as Prometheus 2.42 writes them. */
final class RulesApi {

  /** Go's zero {@code time.Time}, which Prometheus shows for a rule never evaluated. */
  private static final String GO_ZERO_TIME = "0001-01-01T00:00:00Z";

  private final Supplier<List<RuleGroupStatus>> groups;

  RulesApi(Supplier<List<RuleGroupStatus>> groups) {
    this.groups = groups;
  }

  void alerts(Json json) {
    json.beginObject().name("alerts").beginArray();
    for (RuleGroupStatus group : groups.get()) {
      for (RuleGroupStatus.Rule rule : group.rules()) {
        if (rule instanceof RuleGroupStatus.Alerting alerting) {
          alerting.alerts().forEach(alert -> alert(json, alert));
        }
      }
    }
    json.endArray().endObject();
  }

  void rules(Form form, Json json) {
    String type = form.first("type").toLowerCase(Locale.ROOT);
    if (!type.isEmpty() && !type.equals("alert") && !type.equals("record")) {
      throw ApiError.invalidParameter("type", "not supported value " + GoQuote.of(type));
    }
    boolean alerting = !type.equals("record");
    boolean recording = !type.equals("alert");
    json.beginObject().name("groups").beginArray();
    for (RuleGroupStatus group : groups.get()) {
      json.beginObject().name("name").string(group.name()).name("file").string(group.file()).name("rules").beginArray();
      for (RuleGroupStatus.Rule rule : group.rules()) {
        if (rule instanceof RuleGroupStatus.Alerting a && alerting) {
          alertingRule(json, a);
        } else if (rule instanceof RuleGroupStatus.Recording r && recording) {
          recordingRule(json, r);
        }
      }
      json.endArray()
          .name("interval").raw(seconds(group.interval()))
          .name("limit").raw(Integer.toString(group.limit()))
          .name("evaluationTime").raw(seconds(group.evaluationTime()))
          .name("lastEvaluation").string(time(group.lastEvaluation()))
          .endObject();
    }
    json.endArray().endObject();
  }

  private static void alertingRule(Json json, RuleGroupStatus.Alerting rule) {
    json.beginObject()
        .name("state").string(rule.state().apiName)
        .name("name").string(rule.name())
        .name("query").string(rule.query())
        .name("duration").raw(seconds(rule.holdDuration()))
        .name("keepFiringFor").raw(seconds(rule.keepFiringFor()))
        .name("labels").strings(rule.labels())
        .name("annotations").strings(rule.annotations())
        .name("alerts").beginArray();
    rule.alerts().forEach(alert -> alert(json, alert));
    json.endArray().name("health").string(rule.health().apiName);
    rule.lastError().ifPresent(error -> json.name("lastError").string(error));
    json.name("evaluationTime").raw(seconds(rule.evaluationTime()))
        .name("lastEvaluation").string(time(rule.lastEvaluation()))
        .name("type").string("alerting")
        .endObject();
  }

  private static void recordingRule(Json json, RuleGroupStatus.Recording rule) {
    json.beginObject().name("name").string(rule.name()).name("query").string(rule.query());
    if (!rule.labels().isEmpty()) {
      json.name("labels").strings(rule.labels());
    }
    json.name("health").string(rule.health().apiName);
    rule.lastError().ifPresent(error -> json.name("lastError").string(error));
    json.name("evaluationTime").raw(seconds(rule.evaluationTime()))
        .name("lastEvaluation").string(time(rule.lastEvaluation()))
        .name("type").string("recording")
        .endObject();
  }

  /** Prometheus writes an alert's value with {@code 'e'}: {@code 5e+00}. */
  private static void alert(Json json, RuleGroupStatus.Alert alert) {
    json.beginObject()
        .name("labels").strings(alert.labels())
        .name("annotations").strings(alert.annotations())
        .name("state").string(alert.state().apiName)
        .name("activeAt").string(GoFormat.rfc3339Nano(alert.activeAt()));
    alert.keepFiringSince().ifPresent(since -> json.name("keepFiringSince").string(GoFormat.rfc3339Nano(since)));
    json.name("value").string(GoFormat.formatE(alert.value())).endObject();
  }

  /** Go's {@code Duration.Seconds()} as encoding/json writes a float64. */
  private static String seconds(Duration d) {
    return GoFormat.jsonNumber(d.getSeconds() + d.getNano() / 1e9);
  }

  private static String time(Optional<Instant> at) {
    return at.map(GoFormat::rfc3339Nano).orElse(GO_ZERO_TIME);
  }
}
