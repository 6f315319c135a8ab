package dev.firedrill.embedded.api;

import dev.firedrill.embedded.rules.snapshot.AlertSnapshot;
import dev.firedrill.embedded.rules.snapshot.GroupSnapshot;
import dev.firedrill.embedded.rules.snapshot.RuleSnapshot;
import dev.firedrill.format.GoFloat;
import dev.firedrill.format.GoQuote;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.time.Rfc3339;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code /api/v1/alerts} and {@code /api/v1/rules}, field for field as Prometheus 2.42 writes them;
 * in mode 3 with Prometheus 3's filters ({@code rule_name[]}, {@code rule_group[]}, {@code file[]},
 * {@code match[]} on the rules' labels, {@code exclude_alerts}) and pages ({@code group_limit},
 * {@code group_next_token}), a group left without rules omitted as 3.x omits it.
 */
final class RulesApi {

  private final Supplier<List<GroupSnapshot>> groups;
  private final Function<Form, List<List<LabelMatcher>>> matchers;
  private final Compat compat;

  /**
   * @param matchers reads a request's {@code match[]} series selectors, refusing bad ones
   */
  RulesApi(
      Supplier<List<GroupSnapshot>> groups,
      Function<Form, List<List<LabelMatcher>>> matchers,
      Compat compat) {
    this.groups = groups;
    this.matchers = matchers;
    this.compat = compat;
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
    RuleFilter filter =
        compat == Compat.PROMETHEUS_3 ? RuleFilter.of(form, matchers) : RuleFilter.NONE;
    String nextToken = null;
    boolean tokenFound = filter.nextToken().isEmpty();
    json.beginObject().name("groups").beginArray();
    int written = 0;
    for (GroupSnapshot group : groups.get()) {
      String token = RuleFilter.token(group);
      if (!tokenFound) {
        if (!token.equals(filter.nextToken())) {
          continue;
        }
        tokenFound = true;
      }
      if (filter.groupLimit() > 0 && written == filter.groupLimit()) {
        nextToken = token;
        break;
      }
      if (!filter.keeps(group)) {
        continue;
      }
      List<RuleSnapshot> rules =
          group.rules().stream()
              .filter(
                  rule ->
                      (rule instanceof RuleSnapshot.Alerting ? alerting : recording)
                          && filter.keeps(rule))
              .toList();
      // Prometheus 3 leaves out a group whose rules the filters all took; 2.42 shows it empty.
      if (rules.isEmpty() && compat == Compat.PROMETHEUS_3) {
        continue;
      }
      written++;
      json.beginObject()
          .name("name")
          .string(group.name())
          .name("file")
          .string(group.file())
          .name("rules")
          .beginArray();
      for (RuleSnapshot rule : rules) {
        if (rule instanceof RuleSnapshot.Alerting a) {
          alertingRule(json, a, filter.excludeAlerts());
        } else if (rule instanceof RuleSnapshot.Recording r) {
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
    if (!tokenFound) {
      throw ApiError.invalidParameter(
          "group_next_token",
          "invalid group_next_token '" + filter.nextToken() + "'. were rule groups changed?");
    }
    json.endArray();
    if (nextToken != null) {
      json.name("groupNextToken").string(nextToken);
    }
    json.endObject();
  }

  private static void alertingRule(Json json, RuleSnapshot.Alerting rule, boolean noAlerts) {
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
        .name("alerts");
    if (noAlerts) {
      json.raw("null");
    } else {
      json.beginArray();
      rule.alerts().forEach(alert -> alert(json, alert));
      json.endArray();
    }
    json.name("health").string(rule.health());
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
