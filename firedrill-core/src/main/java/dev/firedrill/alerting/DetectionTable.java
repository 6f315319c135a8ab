package dev.firedrill.alerting;

import dev.firedrill.time.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The detection table every run ends with, as text lines for the console and the journal. */
public final class DetectionTable {

  private static final String[] HEADER = {
    "alert",
    "expected",
    "fired",
    "detect",
    "floor",
    "notify",
    "receiver",
    "runbook",
    "dashboard",
    "result"
  };

  private DetectionTable() {}

  public static List<String> lines(List<DetectionRow> rows) {
    List<String[]> cells = new ArrayList<>();
    cells.add(HEADER);
    for (DetectionRow row : rows) {
      cells.add(
          new String[] {
            row.expectation().describe(),
            row.expectation().expect().text() + " " + Durations.format(row.expectation().within()),
            row.fired() ? "yes" : "no",
            time(row.timeToDetect()),
            row.floor().map(f -> Durations.seconds(f.value())).orElse("-"),
            time(row.timeToNotify()),
            row.receiver().status().text(),
            row.runbook().status().text(),
            row.dashboard().status().text(),
            row.held() ? "held" : row.unknown() ? "unknown" : "FAILED"
          });
    }
    int[] widths = new int[HEADER.length];
    for (String[] line : cells) {
      for (int i = 0; i < line.length; i++) {
        widths[i] = Math.max(widths[i], line[i].length());
      }
    }
    List<String> lines = new ArrayList<>();
    for (String[] line : cells) {
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < line.length; i++) {
        text.append(i == 0 ? "" : "  ")
            .append(i == line.length - 1 ? line[i] : pad(line[i], widths[i]));
      }
      lines.add(text.toString());
    }
    for (DetectionRow row : rows) {
      lines.add(
          row.expectation().describe()
              + ": "
              + row.reason()
              + row.floor().map(f -> "; floor " + f.text()).filter(x -> row.held()).orElse(""));
      row.warnings()
          .forEach(warning -> lines.add(row.expectation().describe() + ": warning: " + warning));
    }
    return lines;
  }

  private static String time(Optional<Duration> duration) {
    return duration.map(Durations::seconds).orElse("-");
  }

  private static String pad(String text, int width) {
    return text + " ".repeat(width - text.length());
  }
}
