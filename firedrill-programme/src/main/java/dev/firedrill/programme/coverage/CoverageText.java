package dev.firedrill.programme.coverage;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.time.Durations;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The coverage report as a table for a terminal, and as JSON. */
public final class CoverageText {

  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC);

  private static final List<String> HEADER =
      List.of(
          "alert",
          "drilled by",
          "last run",
          "detect / floor",
          "notify",
          "routing",
          "status",
          "no data");

  private CoverageText() {}

  /** The table's cells, row by row, the header first: what {@link #table} aligns. */
  public static List<List<String>> cells(Coverage.Report report) {
    List<List<String>> cells = new ArrayList<>();
    cells.add(HEADER);
    for (Coverage.Row r : report.rows()) {
      cells.add(
          List.of(
              r.alert(),
              r.drilledBy().isEmpty() ? "-" : String.join(",", r.drilledBy()),
              r.lastRun().map(DAY::format).orElse("-"),
              seconds(r.lastTimeToDetect()) + " / " + Durations.seconds(r.floor().value()),
              seconds(r.lastTimeToNotify()),
              r.lastRouting().isEmpty() ? "-" : r.lastRouting(),
              r.status().text(),
              r.silentWithoutData() ? "SILENT: no absent() companion" : ""));
    }
    return cells;
  }

  /** Aligned columns, the summary line last. */
  public static String table(Coverage.Report report) {
    List<List<String>> cells = cells(report);
    int[] widths = new int[HEADER.size()];
    for (List<String> row : cells) {
      for (int i = 0; i < row.size(); i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (List<String> row : cells) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.size(); i++) {
        line.append(i == row.size() - 1 ? row.get(i) : pad(row.get(i), widths[i] + 2));
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
    return out.append(report.summary()).append('\n').toString();
  }

  /**
   * The report's fields into {@code root} (a {@code --output json} document: docs/output-json.md
   * lists them under {@code ## coverage}).
   */
  public static void json(Coverage.Report report, ObjectNode root) {
    root.put("summary", report.summary());
    root.put("alerts", report.rows().size());
    root.put("drilled", report.drilled());
    root.put("percent", report.percent());
    root.put("never", report.count(Coverage.Status.NEVER));
    root.put("stale", report.count(Coverage.Status.STALE));
    root.put("regressed", report.count(Coverage.Status.REGRESSED));
    root.put("max_age_seconds", report.maxAge().toSeconds());
    ArrayNode rows = root.putArray("rows");
    for (Coverage.Row r : report.rows()) {
      ObjectNode row = rows.addObject();
      row.put("alert", r.alert());
      ArrayNode by = row.putArray("drilled_by");
      r.drilledBy().forEach(by::add);
      row.put("last_run", r.lastRun().map(Object::toString).orElse(null));
      putSeconds(row, "last_time_to_detect_seconds", r.lastTimeToDetect());
      row.put("floor_seconds", r.floor().value().toMillis() / 1000.0);
      row.put("floor_reason", r.floor().reason());
      putSeconds(row, "last_time_to_notify_seconds", r.lastTimeToNotify());
      row.put("last_routing", r.lastRouting().isEmpty() ? null : r.lastRouting());
      row.put("status", r.status().text());
      row.put("silent_without_data", r.silentWithoutData());
      row.put("detail", r.detail());
    }
  }

  private static void putSeconds(ObjectNode row, String key, Optional<Duration> value) {
    if (value.isPresent()) {
      row.put(key, value.get().toMillis() / 1000.0);
    } else {
      row.putNull(key);
    }
  }

  private static String seconds(Optional<Duration> value) {
    return value.map(Durations::seconds).orElse("-");
  }

  private static String pad(String s, int width) {
    return s + " ".repeat(Math.max(0, width - s.length()));
  }
}
