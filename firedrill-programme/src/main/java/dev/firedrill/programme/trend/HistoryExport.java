package dev.firedrill.programme.trend;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.history.DetectionRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The detection history for other tools: CSV (RFC 4180, a header row, seconds as plain numbers) and
 * JSON, both from the runs at or after {@code since}.
 */
public final class HistoryExport {

  private static final List<String> COLUMNS =
      List.of(
          "run_at",
          "run_id",
          "experiment",
          "alert",
          "alert_key",
          "expect",
          "fired",
          "time_to_detect_s",
          "time_to_notify_s",
          "receivers",
          "expected_receiver",
          "routing",
          "held",
          "verdict",
          "journal");

  private HistoryExport() {}

  public static List<DetectionRecord> since(List<DetectionRecord> records, Instant since) {
    return records.stream().filter(r -> !r.runAt().isBefore(since)).toList();
  }

  public static String csv(List<DetectionRecord> records) {
    StringBuilder out = new StringBuilder(String.join(",", COLUMNS)).append("\r\n");
    for (DetectionRecord r : records) {
      List<String> cells =
          List.of(
              r.runAt().toString(),
              r.runId(),
              r.experiment(),
              r.alert(),
              r.alertKey(),
              r.expect(),
              Boolean.toString(r.fired()),
              seconds(r.timeToDetect()),
              seconds(r.timeToNotify()),
              String.join(" ", r.receivers()),
              r.expectedReceiver().orElse(""),
              r.routing(),
              Boolean.toString(r.held()),
              r.verdict(),
              r.journal());
      for (int i = 0; i < cells.size(); i++) {
        out.append(i == 0 ? "" : ",").append(cell(cells.get(i)));
      }
      out.append("\r\n");
    }
    return out.toString();
  }

  public static String json(List<DetectionRecord> records) {
    ObjectMapper mapper = new ObjectMapper();
    ArrayNode rows = mapper.createArrayNode();
    for (DetectionRecord r : records) {
      ObjectNode row = rows.addObject();
      row.put("run_at", r.runAt().toString());
      row.put("run_id", r.runId());
      row.put("experiment", r.experiment());
      row.put("alert", r.alert());
      row.put("alert_key", r.alertKey());
      row.put("expect", r.expect());
      row.put("fired", r.fired());
      number(row, "time_to_detect_s", r.timeToDetect());
      number(row, "time_to_notify_s", r.timeToNotify());
      ArrayNode receivers = row.putArray("receivers");
      r.receivers().forEach(receivers::add);
      row.put("expected_receiver", r.expectedReceiver().orElse(null));
      row.put("routing", r.routing());
      row.put("held", r.held());
      row.put("verdict", r.verdict());
      row.put("journal", r.journal());
    }
    try {
      return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(rows) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a tree of plain values always serialises", e);
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
