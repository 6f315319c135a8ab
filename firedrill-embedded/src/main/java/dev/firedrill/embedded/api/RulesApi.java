package dev.firedrill.embedded.api;

import dev.firedrill.embedded.rules.snapshot.AlertSnapshot;
import dev.firedrill.embedded.rules.snapshot.GroupSnapshot;
import dev.firedrill.embedded.rules.snapshot.RuleSnapshot;
import dev.firedrill.format.GoFloat;
import dev.firedrill.format.GoQuote;
import dev.firedrill.time.Rfc3339;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * {@code /api/v1/alerts} and {@code /api/v1/rules}, field for field as Prometheus 2.42 writes them.
 */
final class RulesApi {

  /** Go's zero {@code time.Time}, which Prometheus shows for a rule never evaluated. */
  private final Supplier<List<GroupSnapshot>> groups;

  RulesApi(Supplier<List<GroupSnapshot>> groups) {
    this.groups = groups;
  }

  void alerts(Json json) {
    json.beginObject().name("alerts").beginArray();
    for (GroupSnapshot group : groups.get()) {
      for (RuleSnapshot rule : group.rules()) {
        if (rule instanceof RuleSnapshot.Alerting alerting) {
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
    for (GroupSnapshot group : groups.get()) {
      json.beginObject()
          .name("name")
          .string(group.name())
          .name("file")
          .string(group.file())
          .name("rules")
          .beginArray();
      for (RuleSnapshot rule : group.rules()) {
        if (rule instanceof RuleSnapshot.Alerting a && alerting) {
          alertingRule(json, a);
        } else if (rule instanceof RuleSnapshot.Recording r && recording) {
          recordingRule(json, r);
        }
      }
      json.endArray()
          .name("interval")
          .raw(GoFloat.jsonNumber(group.interval()))
          .name("limit")
          .raw(Integer.toString(group.limit()))
          .name("evaluationTime")
          .raw(GoFloat.jsonNumber(group.evaluationTime()))
          .name("lastEvaluation")
          .string(Rfc3339.formatNanoOrZero(group.lastEvaluation()))
          .endObject();
    }
    json.endArray().endObject();
  }

  private static void alertingRule(Json json, RuleSnapshot.Alerting rule) {
    json.beginObject()
        .name("state")
        .string(rule.state())
        .name("name")
        .string(rule.name())
        .name("query")
        .string(rule.query())
        .name("duration")
        .raw(GoFloat.jsonNumber(rule.duration()))
        .name("keepFiringFor")
        .raw(GoFloat.jsonNumber(rule.keepFiringFor()))
        .name("labels")
        .strings(sorted(rule.labels()))
        .name("annotations")
        .strings(sorted(rule.annotations()))
        .name("alerts")
        .beginArray();
    rule.alerts().forEach(alert -> alert(json, alert));
    json.endArray().name("health").string(rule.health());
    lastError(json, rule.lastError());
    json.name("evaluationTime")
        .raw(GoFloat.jsonNumber(rule.evaluationTime()))
        .name("lastEvaluation")
        .string(Rfc3339.formatNanoOrZero(rule.lastEvaluation()))
        .name("type")
        .string("alerting")
        .endObject();
  }

  private static void recordingRule(Json json, RuleSnapshot.Recording rule) {
    json.beginObject().name("name").string(rule.name()).name("query").string(rule.query());
    if (!rule.labels().isEmpty()) {
      json.name("labels").strings(sorted(rule.labels()));
    }
    json.name("health").string(rule.health());
    lastError(json, rule.lastError());
    json.name("evaluationTime")
        .raw(GoFloat.jsonNumber(rule.evaluationTime()))
        .name("lastEvaluation")
        .string(Rfc3339.formatNanoOrZero(rule.lastEvaluation()))
        .name("type")
        .string("recording")
        .endObject();
  }

  /** Prometheus leaves {@code lastError} out when there is none. */
  private static void lastError(Json json, String lastError) {
    if (lastError != null && !lastError.isEmpty()) {
      json.name("lastError").string(lastError);
    }
  }

  private static void alert(Json json, AlertSnapshot alert) {
    json.beginObject()
        .name("labels")
        .strings(sorted(alert.labels()))
        .name("annotations")
        .strings(sorted(alert.annotations()))
        .name("state")
        .string(alert.state())
        .name("activeAt")
        .string(Rfc3339.formatNanoOrZero(alert.activeAt()));
    alert
        .keepFiringSince()
        .ifPresent(since -> json.name("keepFiringSince").string(Rfc3339.formatNano(since)));
    json.name("value").string(alert.value()).endObject();
  }

  /** Go marshals a map with its keys sorted. */
  private static Map<String, String> sorted(Map<String, String> map) {
    return new TreeMap<>(map);
  }
}
