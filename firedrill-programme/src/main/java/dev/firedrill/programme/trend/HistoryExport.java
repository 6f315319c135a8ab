package dev.firedrill.programme.trend;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.history.DetectionRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The detection history for other tools: the rows of {@code history --output json} (the shape in
 * docs/output-json.md) and CSV with the same columns (RFC 4180, a header row, seconds as plain
 * numbers, an absent value an empty cell), both from the rows {@code history} read.
 */
public final class HistoryExport {

  /** The CSV header, and the JSON fields of each run, in this order. */
  public static final List<String> COLUMNS =
      List.of(
          "run_id",
          "run_at",
          "experiment",
          "alert",
          "alert_key",
          "expect",
          "fired",
          "time_to_detect_seconds",
          "time_to_notify_seconds",
          "receivers",
          "expected_receiver",
          "routing",
          "held",
          "verdict",
          "simulated",
          "journal");

  private HistoryExport() {}

  /** The runs at or after {@code since}. */
  public static List<DetectionRecord> since(List<DetectionRecord> records, Instant since) {
    return records.stream().filter(r -> !r.runAt().isBefore(since)).toList();
  }

  /** A header row, then a row per record; receivers separated by {@code ;}. */
  public static String csv(List<DetectionRecord> records) {
    StringBuilder out = new StringBuilder(String.join(",", COLUMNS)).append("\r\n");
    for (DetectionRecord r : records) {
      List<String> cells =
          List.of(
              r.runId(),
              r.runAt().toString(),
              r.experiment(),
              r.alert(),
              r.alertKey(),
              r.expect(),
              Boolean.toString(r.fired()),
              seconds(r.timeToDetect()),
              seconds(r.timeToNotify()),
              String.join(";", r.receivers()),
              r.expectedReceiver().orElse(""),
              r.routing(),
              Boolean.toString(r.held()),
              r.verdict(),
              Boolean.toString(r.simulated()),
              r.journal());
      for (int i = 0; i < cells.size(); i++) {
        out.append(i == 0 ? "" : ",").append(cell(cells.get(i)));
      }
      out.append("\r\n");
    }
    return out.toString();
  }

  /** An object per record into {@code rows}, its fields {@link #COLUMNS}. */
  public static void json(List<DetectionRecord> records, ArrayNode rows) {
    for (DetectionRecord r : records) {
      ObjectNode row = rows.addObject();
      row.put("run_id", r.runId());
      row.put("run_at", r.runAt().toString());
      row.put("experiment", r.experiment());
      row.put("alert", r.alert());
      row.put("alert_key", r.alertKey());
      row.put("expect", r.expect());
      row.put("fired", r.fired());
      number(row, "time_to_detect_seconds", r.timeToDetect());
      number(row, "time_to_notify_seconds", r.timeToNotify());
      ArrayNode receivers = row.putArray("receivers");
      r.receivers().forEach(receivers::add);
      row.put("expected_receiver", r.expectedReceiver().orElse(null));
      row.put("routing", r.routing());
      row.put("held", r.held());
      row.put("verdict", r.verdict());
      row.put("simulated", r.simulated());
      row.put("journal", r.journal());
    }
  }

  private static void number(ObjectNode row, String key, Optional<Duration> value) {
    if (value.isPresent()) {
      row.put(key, value.get().toMillis() / 1000.0);
    } else {
      row.putNull(key);
    }
  }

  private static String seconds(Optional<Duration> value) {
    return value.map(d -> Double.toString(d.toMillis() / 1000.0)).orElse("");
  }

  /** Quoted when it holds a comma, a quote or a line break; quotes doubled. */
  private static String cell(String s) {
    return s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")
        ? "\"" + s.replace("\"", "\"\"") + "\""
        : s;
  }
}
