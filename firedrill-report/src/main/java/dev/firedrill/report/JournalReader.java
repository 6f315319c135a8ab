package dev.firedrill.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.engine.JournalFile;
import dev.firedrill.format.ControlChars;
import dev.firedrill.report.DrillRecord.Alert;
import dev.firedrill.report.DrillRecord.BurnRate;
import dev.firedrill.report.DrillRecord.Detection;
import dev.firedrill.report.DrillRecord.Event;
import dev.firedrill.report.DrillRecord.Experiment;
import dev.firedrill.report.DrillRecord.Fault;
import dev.firedrill.report.DrillRecord.Sample;
import dev.firedrill.report.DrillRecord.Sli;
import dev.firedrill.report.DrillRecord.Value;
import dev.firedrill.time.Durations;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one way reports read a journal. Every problem is one {@link IOException} line naming the
 * file, the field and what was expected there.
 */
public final class JournalReader {

  private final String source;

  private JournalReader(String source) {
    this.source = source;
  }

  public static DrillRecord read(Path path) throws IOException {
    return of(new JournalFile(path).read().json(), path.toAbsolutePath().toString());
  }

  /**
   * A journal already in memory, e.g. the one a drill just finished; {@code source} names it in
   * errors.
   */
  public static DrillRecord of(JsonNode root, String source) throws IOException {
    JournalReader reader = new JournalReader(source);
    try {
      return reader.record(root);
    } catch (Problem p) {
      // A value is quoted as found: a crafted journal must not reach the terminal raw.
      throw new IOException(
          ControlChars.quote(source + ": not a firedrill journal: expected " + p.getMessage()));
    }
  }

  private DrillRecord record(JsonNode root) {
    JsonNode format = root.path("firedrill_journal");
    if (!format.isInt() || format.asInt() != 1) {
      throw new Problem("\"firedrill_journal\": 1 (this firedrill reads journal format 1)");
    }
    Experiment experiment = experiment(object(root, "experiment", "experiment"));
    List<Event> events = new ArrayList<>();
    for (JsonNode e : array(root, "events", "events")) {
      events.add(
          new Event(
              instant(e, "at", "events[].at"),
              text(e, "phase", "events[].phase"),
              text(e, "text", "events[].text")));
    }
    List<Sample> samples = new ArrayList<>();
    for (JsonNode m : array(root, "measurements", "measurements")) {
      List<Value> values = new ArrayList<>();
      for (JsonNode r : array(m, "readings", "measurements[].readings")) {
        values.add(
            new Value(
                text(r, "name", "measurements[].readings[].name"),
                text(r, "status", "measurements[].readings[].status"),
                number(r.get("value")),
                r.path("expectation").asText(""),
                number(r.get("control"))));
      }
      samples.add(
          new Sample(
              instant(m, "at", "measurements[].at"),
              text(m, "phase", "measurements[].phase"),
              text(m, "status", "measurements[].status"),
              values));
    }
    List<Fault> faults = new ArrayList<>();
    for (JsonNode f : array(root, "faults", "faults")) {
      JsonNode revert = f.path("revert");
      faults.add(
          new Fault(
              text(f, "kind", "faults[].kind"),
              optInstant(f, "injected_at", "faults[].injected_at"),
              optInstant(revert, "at", "faults[].revert.at"),
              f.path("reverted").asBoolean(false),
              revert.path("detail").asText(""),
              optText(revert, "manual_command")));
    }
    Optional<Detection> detection = Optional.empty();
    if (root.has("detection")) {
      JsonNode d = object(root, "detection", "detection");
      List<Alert> alerts = new ArrayList<>();
      for (JsonNode a : array(d, "alerts", "detection.alerts")) {
        alerts.add(alert(a, events));
      }
      detection =
          Optional.of(
              new Detection(
                  text(d, "verdict", "detection.verdict"),
                  text(d, "reason", "detection.reason"),
                  alerts));
    }
    return new DrillRecord(
        experiment,
        instant(root, "started_at", "started_at"),
        optInstant(root, "injected_at", "injected_at"),
        optInstant(root, "aborted_at", "aborted_at"),
        optText(root, "abort_reason"),
        optInstant(root, "rollback_at", "rollback_at"),
        optInstant(root, "rollback_done_at", "rollback_done_at"),
        optInstant(root, "recovered_at", "recovered_at"),
        number(root.get("recovery_seconds")),
        optInstant(root, "finished_at", "finished_at"),
        optText(root, "verdict").orElse(DrillRecord.UNFINISHED),
        optText(root, "reason").orElse("the journal has no verdict: the drill did not finish"),
        root.path("rollback_ok").asBoolean(root.has("verdict")),
        samples,
        faults,
        optText(root.path("plan"), "budget"),
        detection,
        events,
        root.has("simulation"));
  }

  private Experiment experiment(JsonNode e) {
    List<Sli> slis = new ArrayList<>();
    for (JsonNode s : array(e, "slis", "experiment.slis")) {
      String range = text(s, "range", "experiment.slis[].range");
      try {
        slis.add(
            new Sli(
                text(s, "name", "experiment.slis[].name"),
                text(s, "query", "experiment.slis[].query"),
                Range.parse(range),
                optText(s, "control")));
      } catch (IllegalArgumentException ex) {
        throw new Problem(
            "experiment.slis[].range " + ex.getMessage().substring("expected ".length()));
      }
    }
    Optional<BurnRate> burn = Optional.empty();
    if (e.has("burn_rate")) {
      JsonNode b = e.get("burn_rate");
      burn =
          Optional.of(
              new BurnRate(
                  requiredNumber(b, "objective", "experiment.burn_rate.objective"),
                  duration(b, "window", "experiment.burn_rate.window"),
                  b.path("error_ratio").asText(""),
                  requiredNumber(b, "max", "experiment.burn_rate.max")));
    }
    return new Experiment(
        text(e, "id", "experiment.id"),
        text(e, "title", "experiment.title"),
        e.path("owner").asText(""),
        e.path("hypothesis").asText(""),
        e.path("file").asText(""),
        duration(e, "duration", "experiment.duration"),
        duration(e, "interval", "experiment.interval"),
        duration(e, "recovery", "experiment.recovery"),
        slis,
        burn);
  }

  private Alert alert(JsonNode a, List<Event> events) {
    Map<String, String> matchers = new LinkedHashMap<>();
    a.path("matchers")
        .properties()
        .iterator()
        .forEachRemaining(f -> matchers.put(f.getKey(), f.getValue().asText()));
    Alert row =
        new Alert(
            text(a, "alert", "detection.alerts[].alert"),
            matchers,
            text(a, "expect", "detection.alerts[].expect"),
            requiredNumber(a, "within_s", "detection.alerts[].within_s"),
            a.path("fired").asBoolean(false),
            OptionalDouble.empty(),
            number(a.get("time_to_detect_s")),
            a.path("detect_source").asText(""),
            number(a.get("floor_s")),
            a.path("floor_reason").asText(""),
            number(a.get("time_to_notify_s")),
            a.path("receiver").asText("-"),
            a.path("receiver_detail").asText(""),
            a.path("runbook").asText("-"),
            a.path("runbook_detail").asText(""),
            a.path("dashboard").asText("-"),
            a.path("held").asBoolean(false),
            a.path("unknown").asBoolean(false),
            a.path("reason").asText(""));
    OptionalDouble pending = activeSince(row.describe(), events);
    return new Alert(
        row.alert(),
        row.matchers(),
        row.expect(),
        row.withinS(),
        row.fired(),
        pending,
        row.timeToDetectS(),
        row.detectSource(),
        row.floorS(),
        row.floorReason(),
        row.timeToNotifyS(),
        row.receiver(),
        row.receiverDetail(),
        row.runbook(),
        row.runbookDetail(),
        row.dashboard(),
        row.held(),
        row.unknown(),
        row.reason());
  }

  /**
   * The detect event "NAME pending, active since +0.7s after injection" is the only record of
   * activeAt.
   */
  private static OptionalDouble activeSince(String describe, List<Event> events) {
    Pattern pattern =
        Pattern.compile(
            Pattern.quote(describe)
                + " (?:pending|firing), active since ([+-])(\\d+(?:\\.\\d+)?)s after injection");
    for (Event event : events) {
      Matcher m = pattern.matcher(event.text());
      if ("detect".equals(event.phase()) && m.matches()) {
        double value = Double.parseDouble(m.group(2));
        return OptionalDouble.of("-".equals(m.group(1)) ? -value : value);
      }
    }
    return OptionalDouble.empty();
  }

  private JsonNode object(JsonNode node, String field, String where) {
    JsonNode value = node.get(field);
    if (value == null || !value.isObject()) {
      throw new Problem(where + " (an object)");
    }
    return value;
  }

  private Iterable<JsonNode> array(JsonNode node, String field, String where) {
    JsonNode value = node.get(field);
    if (value == null || !value.isArray()) {
      throw new Problem(where + " (an array)");
    }
    return value;
  }

  private String text(JsonNode node, String field, String where) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw new Problem(where + " (a string)");
    }
    return value.asText();
  }

  private static Optional<String> optText(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || !value.isTextual() ? Optional.empty() : Optional.of(value.asText());
  }

  private Instant instant(JsonNode node, String field, String where) {
    return optInstant(node, field, where)
        .orElseThrow(() -> new Problem(where + " (an RFC 3339 time)"));
  }

  private Optional<Instant> optInstant(JsonNode node, String field, String where) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(value.asText()));
    } catch (DateTimeParseException e) {
      throw new Problem(where + " (an RFC 3339 time), got \"" + value.asText() + "\"");
    }
  }

  private Duration duration(JsonNode node, String field, String where) {
    String text =
        optText(node, field).orElseThrow(() -> new Problem(where + " (a duration like \"30s\")"));
    try {
      return Durations.parse(text);
    } catch (RuntimeException e) {
      throw new Problem(where + " (a duration like \"30s\"), got \"" + text + "\"");
    }
  }

  private double requiredNumber(JsonNode node, String field, String where) {
    OptionalDouble value = number(node.get(field));
    if (value.isEmpty()) {
      throw new Problem(where + " (a number)");
    }
    return value.getAsDouble();
  }

  /**
   * The journal writes NaN and infinities as strings; no chart can place them, so they count as
   * absent.
   */
  private static OptionalDouble number(JsonNode value) {
    if (value == null || !value.isNumber()) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(value.asDouble());
  }

  /** Unwinds the reading to {@link #of}, which adds the file's name. */
  private static final class Problem extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Problem(String expected) {
      super(expected, null, false, false);
    }
  }
}
