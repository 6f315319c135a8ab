package dev.firedrill.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.alerting.DetectionRow;
import dev.firedrill.alerting.ObservabilityResult;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.Sli;
import dev.firedrill.fault.FaultKinds;
import dev.firedrill.fault.ProcessId;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import dev.firedrill.http.Secret;
import dev.firedrill.time.Durations;
import dev.firedrill.watchdog.WatchdogFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The evidence of one drill as a JSON document, kept current milestone by milestone ({@link
 * JournalRecorder}). It holds places (an environment variable's name, a file's path), never
 * secrets.
 */
public final class Journal {

  public static final int FORMAT = 1;

  private final ObjectNode root;

  private Journal(ObjectNode root) {
    this.root = root;
  }

  public static Journal start(Experiment experiment, String sourceFile, Instant startedAt) {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    root.put("firedrill_journal", FORMAT);
    root.set("experiment", describe(experiment, sourceFile));
    root.put("started_at", startedAt.toString());
    root.putArray("events");
    root.putArray("measurements");
    root.putArray("faults");
    return new Journal(root);
  }

  /** A journal read back from disk, for cleanup. */
  public static Journal of(ObjectNode root) {
    return new Journal(root);
  }

  public ObjectNode json() {
    return root;
  }

  void plan(List<String> refusals, String budget) {
    ObjectNode plan = root.putObject("plan");
    ArrayNode list = plan.putArray("refusals");
    refusals.forEach(list::add);
    if (budget != null) {
      plan.put("budget", budget);
    }
  }

  void event(Instant at, MilestoneText.Line line) {
    ObjectNode node = ((ArrayNode) root.get("events")).addObject();
    node.put("at", at.toString());
    node.put("offset_s", seconds(line.offset()));
    node.put("phase", line.phase().text());
    node.put("text", line.text());
  }

  void measurement(Phase phase, Duration offset, Measurement measurement) {
    ObjectNode node = ((ArrayNode) root.get("measurements")).addObject();
    node.put("at", measurement.at().toString());
    node.put("offset_s", seconds(offset));
    node.put("phase", phase.text());
    node.put("status", measurement.status().text());
    ArrayNode readings = node.putArray("readings");
    measurement.readings().forEach(reading -> readings.add(reading(reading)));
  }

  /** Adds a fault entry, at the index the plan gave the fault. */
  void fault(FaultSpec spec, List<String> plan, String ttlEnforcedBy) {
    ArrayNode faults = (ArrayNode) root.get("faults");
    ObjectNode node = faults.addObject();
    node.put("index", faults.size() - 1);
    node.put("kind", spec.kind());
    node.set("spec", FaultKinds.installed().writeJournal(spec));
    node.put("ttl_enforced_by", ttlEnforcedBy);
    ArrayNode actions = node.putArray("plan");
    plan.forEach(actions::add);
    node.put("injected", false);
  }

  /**
   * {@code state}, what the fault knows it will create, stands in the journal until the injection
   * replaces it with what it created; none is written when the fault knows nothing before.
   */
  void faultStarting(int index, Instant at, Optional<Map<String, Object>> state) {
    faultNode(index).put("started_at", at.toString());
    state.ifPresent(known -> faultState(index, known));
    // Written before inject: a crash mid-injection still shows the fault as needing a revert.
    faultNode(index).put("injected", true);
    faultNode(index).put("reverted", false);
  }

  /** The watchdog's process and the files it shares with firedrill, which cleanup reads. */
  void watchdog(ProcessId process, WatchdogFiles files, Duration grace, Instant at) {
    ObjectNode node = root.putObject("watchdog");
    node.put("pid", process.pid());
    node.put("start", process.startTicks());
    node.put("started_at", at.toString());
    node.put("grace_s", seconds(grace));
    node.put("holds", files.holds().toString());
    node.put("lease", files.lease().toString());
    node.put("record", files.record().toString());
  }

  /** The watchdog's files as the journal names them; empty when no watchdog was started. */
  public Optional<WatchdogFiles> watchdogFiles() {
    JsonNode node = root.path("watchdog");
    if (!node.hasNonNull("record")) {
      return Optional.empty();
    }
    return Optional.of(
        new WatchdogFiles(
            Path.of(node.path("holds").asText()),
            Path.of(node.path("lease").asText()),
            Path.of(node.path("record").asText())));
  }

  void faultInjected(int index, Instant at) {
    faultNode(index).put("injected_at", at.toString());
  }

  void faultState(int index, Map<String, Object> state) {
    faultNode(index).set("state", Jsons.tree(state));
  }

  void faultSelected(int index, List<String> selected) {
    if (!selected.isEmpty()) {
      ArrayNode list = faultNode(index).putArray("selected");
      selected.forEach(list::add);
    }
  }

  /**
   * What {@code {{ targets }}} stood for and the SLI queries as run with it: one entry before
   * injection, one after.
   */
  void queriesAsRun(Milestone.TargetsResolved resolved) {
    ArrayNode all =
        root.has("queries_as_run")
            ? (ArrayNode) root.get("queries_as_run")
            : root.putArray("queries_as_run");
    ObjectNode node = all.addObject();
    node.put("at", resolved.at().toString());
    node.put("injected", resolved.injected());
    ArrayNode names = node.putArray("targets");
    resolved.names().forEach(names::add);
    ArrayNode slis = node.putArray("slis");
    for (Milestone.QueriesAsRun queries : resolved.queries()) {
      ObjectNode sli = slis.addObject();
      sli.put("name", queries.sli());
      sli.put("query", queries.query());
      queries.control().ifPresent(control -> sli.put("control", control));
    }
  }

  void faultRevert(
      int index, Instant at, boolean ok, int attempts, String detail, String manualCommand) {
    ObjectNode node = faultNode(index);
    node.put("reverted", ok);
    ObjectNode revert = node.putObject("revert");
    revert.put("at", at.toString());
    revert.put("ok", ok);
    revert.put("attempts", attempts);
    revert.put("detail", detail);
    if (!ok) {
      revert.put("manual_command", manualCommand);
    }
  }

  void detection(ObservabilityResult result) {
    ObjectNode node = root.putObject("detection");
    node.put("verdict", result.verdict().text());
    node.put("reason", result.reason());
    ArrayNode rows = node.putArray("alerts");
    for (DetectionRow row : result.rows()) {
      ObjectNode r = rows.addObject();
      r.put("alert", row.expectation().alert());
      r.set("matchers", Jsons.tree(row.expectation().matchers()));
      r.put("expect", row.expectation().expect().text());
      r.put("within_s", row.expectation().within().toMillis() / 1000.0);
      r.put("fired", row.fired());
      row.timeToDetect().ifPresent(d -> r.put("time_to_detect_s", d.toMillis() / 1000.0));
      r.put("detect_source", row.detectSource());
      row.floor()
          .ifPresent(
              f -> {
                r.put("floor_s", f.value().toMillis() / 1000.0);
                r.put("floor_reason", f.reason());
              });
      row.timeToNotify().ifPresent(d -> r.put("time_to_notify_s", d.toMillis() / 1000.0));
      r.put("receiver", row.receiver().status().text());
      r.put("receiver_detail", row.receiver().detail());
      row.expectation().receiver().ifPresent(expected -> r.put("receiver_expected", expected));
      ArrayNode receivers = r.putArray("receivers");
      row.receivers().forEach(receivers::add);
      r.put("runbook", row.runbook().status().text());
      r.put("runbook_detail", row.runbook().detail());
      r.put("dashboard", row.dashboard().status().text());
      r.put("held", row.held());
      // Not held only because the stack could not be read: the reports and the history must not
      // call it a failure of the alert.
      r.put("unknown", row.unknown());
      r.put("reason", row.reason());
      if (!row.warnings().isEmpty()) {
        ArrayNode warnings = r.putArray("warnings");
        row.warnings().forEach(warnings::add);
      }
    }
  }

  /**
   * What firedrill's webhook receiver saw: how many notifications, and every payload it refused.
   */
  void receiver(int notifications, long rejected, List<String> rejections) {
    ObjectNode node = root.putObject("receiver");
    node.put("notifications", notifications);
    node.put("rejected", rejected);
    ArrayNode list = node.putArray("rejections");
    rejections.forEach(list::add);
  }

  /**
   * What the markers said while the drill ran (a Grafana answering 500, a Pushgateway down, a
   * scrape that never came), each one line naming the marker; written after the drill, because
   * markers report from their own threads.
   */
  void markerNotes(List<String> notes) {
    ArrayNode list = root.putArray("marker_notes");
    notes.forEach(list::add);
  }

  void time(String field, Instant at) {
    root.put(field, at.toString());
  }

  void text(String field, String value) {
    root.put(field, value);
  }

  void number(String field, double value) {
    root.put(field, value);
  }

  void verdict(Verdict verdict, String reason, boolean rollbackOk, Instant at) {
    root.put("verdict", verdict.text());
    root.put("reason", reason);
    root.put("rollback_ok", rollbackOk);
    root.put("finished_at", at.toString());
  }

  public List<JsonNode> faults() {
    return List.copyOf(iterable(root.get("faults")));
  }

  public ObjectNode faultNode(int index) {
    return (ObjectNode) root.get("faults").get(index);
  }

  public String verdict() {
    return root.path("verdict").asText(null);
  }

  /** The experiment's id, as the journal recorded it. */
  public String experimentId() {
    return root.path("experiment").path("id").asText();
  }

  /** The method's duration, as the journal recorded it; 1s for a journal without one. */
  public Duration methodDuration() {
    return Durations.parse(root.path("experiment").path("duration").asText("1s"));
  }

  private static List<JsonNode> iterable(JsonNode array) {
    List<JsonNode> list = new java.util.ArrayList<>();
    array.forEach(list::add);
    return list;
  }

  private static ObjectNode reading(Reading reading) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("name", reading.name());
    node.put("status", reading.status().text());
    if (reading.value().isPresent()) {
      Jsons.putNumber(node, "value", reading.value().getAsDouble());
    }
    if (reading.control().isPresent()) {
      Jsons.putNumber(node, "control", reading.control().getAsDouble());
    }
    node.put("expectation", reading.expectation());
    if (!reading.detail().isEmpty()) {
      node.put("detail", reading.detail());
    }
    return node;
  }

  private static ObjectNode describe(Experiment experiment, String sourceFile) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("id", experiment.id());
    node.put("title", experiment.title());
    node.put("owner", experiment.owner());
    node.put("file", sourceFile);
    node.put("prometheus", experiment.prometheus().url().toString());
    // places and names only: the secrets themselves never reach the journal
    node.put(
        "prometheus_token",
        experiment.prometheus().http().bearerToken().map(Secret::describe).orElse("none"));
    node.put("prometheus_auth", experiment.prometheus().http().describeAuth());
    if (!experiment.prometheus().http().headers().isEmpty()) {
      node.putPOJO(
          "prometheus_headers", List.copyOf(experiment.prometheus().http().headers().keySet()));
    }
    experiment
        .prometheus()
        .rulesUrl()
        .ifPresent(url -> node.put("prometheus_rules_url", url.toString()));
    node.put("hypothesis", experiment.hypothesis().description());
    node.put("interval", Durations.format(experiment.steadyState().interval()));
    node.put("duration", Durations.format(experiment.method().duration()));
    node.put("recovery", Durations.format(experiment.hypothesis().recovery()));
    ArrayNode slis = node.putArray("slis");
    for (Sli sli : experiment.steadyState().slis()) {
      ObjectNode s = slis.addObject();
      s.put("name", sli.name());
      s.put("query", sli.query());
      s.put("range", sli.rangeText());
      sli.control().ifPresent(control -> s.put("control", control.query()));
      s.put("missing", sli.missing().text());
    }
    experiment
        .abort()
        .burnRate()
        .ifPresent(
            guard -> {
              ObjectNode burn = node.putObject("burn_rate");
              burn.put("objective", guard.objective());
              burn.put("window", Durations.format(guard.window()));
              burn.put("error_ratio", guard.errorRatioQuery());
              burn.put("max", guard.max());
            });
    return node;
  }

  private static double seconds(Duration duration) {
    return duration.toMillis() / 1000.0;
  }
}
