package dev.firedrill.history;

import dev.firedrill.time.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The history as text: per alert, one line per run, oldest first. */
public final class HistoryTable {

  private static final String[] HEADER = {
    "date (UTC)", "experiment", "fired", "detect", "notify", "routing", "result"
  };

  private HistoryTable() {}

  public static List<String> lines(List<DetectionRecord> records) {
    Map<String, List<DetectionRecord>> byAlert = new LinkedHashMap<>();
    records.forEach(r -> byAlert.computeIfAbsent(r.alertKey(), k -> new ArrayList<>()).add(r));
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, List<DetectionRecord>> alert : byAlert.entrySet()) {
      if (!lines.isEmpty()) {
        lines.add("");
      }
      lines.add(alert.getKey());
      List<String[]> cells = new ArrayList<>();
      cells.add(HEADER);
      for (DetectionRecord r : alert.getValue()) {
        cells.add(
            new String[] {
              RegressionCheck.date(r.runAt()),
              r.experiment() + (r.simulated() ? DetectionRecord.SIMULATED : ""),
              (r.fired() ? "yes" : "no")
                  + (r.expectedToFire() ? "" : " (expect " + r.expect() + ")"),
              time(r.timeToDetect()),
              time(r.timeToNotify()),
              routing(r),
              r.held() ? "held" : "FAILED"
            });
      }
      lines.addAll(align(cells));
    }
    return lines;
  }

  private static String routing(DetectionRecord r) {
    String seen = r.receivers().isEmpty() ? "-" : r.receiversText();
    return r.misrouted()
        ? seen + r.expectedReceiver().map(e -> " (expected " + e + ")").orElse(" (wrong)")
        : seen;
  }

  private static List<String> align(List<String[]> cells) {
    int[] widths = new int[HEADER.length];
    for (String[] line : cells) {
      for (int i = 0; i < line.length; i++) {
        widths[i] = Math.max(widths[i], line[i].length());
      }
    }
    List<String> lines = new ArrayList<>();
    for (String[] line : cells) {
      StringBuilder text = new StringBuilder("  ");
      for (int i = 0; i < line.length; i++) {
        text.append(i == 0 ? "" : "  ")
            .append(
                i == line.length - 1
                    ? line[i]
                    : line[i] + " ".repeat(widths[i] - line[i].length()));
      }
      lines.add(text.toString());
    }
    return lines;
  }

  private static String time(Optional<Duration> duration) {
    return duration.map(Durations::seconds).orElse("-");
  }
}
