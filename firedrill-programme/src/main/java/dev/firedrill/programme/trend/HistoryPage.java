package dev.firedrill.programme.trend;

import dev.firedrill.history.DetectionRecord;
import dev.firedrill.report.DrillRecord;
import dev.firedrill.report.HtmlReport;
import dev.firedrill.report.JournalReader;
import dev.firedrill.time.Durations;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * {@code firedrill history --format html}: one self-contained page with, per alert expected to
 * fire, its time to detect and to notify over its runs against its floor ({@link TrendSvg}, as the
 * suite's report draws them) and the runs as a table. Simulated rows are left out of the charts: a
 * prediction is not a measurement.
 */
public final class HistoryPage {

  private static final DateTimeFormatter MINUTE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);

  private HistoryPage() {}

  /**
   * Each alert key's floor, in seconds: the one its latest run's journal measured. A journal that
   * is gone or unreadable is passed over for the run before it; an alert none of whose journals can
   * be read has no floor line.
   */
  public static Map<String, OptionalDouble> floorsFromJournals(List<DetectionRecord> records) {
    Map<String, OptionalDouble> floors = new LinkedHashMap<>();
    Map<String, Optional<DrillRecord>> journals = new LinkedHashMap<>();
    List<DetectionRecord> newestFirst =
        records.stream().sorted(Comparator.comparing(DetectionRecord::runAt).reversed()).toList();
    for (DetectionRecord r : newestFirst) {
      if (floors.containsKey(r.alertKey()) && floors.get(r.alertKey()).isPresent()) {
        continue;
      }
      Optional<DrillRecord> journal = journals.computeIfAbsent(r.journal(), HistoryPage::read);
      OptionalDouble floor =
          journal
              .flatMap(DrillRecord::detection)
              .map(DrillRecord.Detection::alerts)
              .orElse(List.of())
              .stream()
              .filter(a -> a.describe().equals(r.alertKey()))
              .map(DrillRecord.Alert::floorS)
              .filter(OptionalDouble::isPresent)
              .findFirst()
              .orElse(OptionalDouble.empty());
      floors.put(r.alertKey(), floor);
    }
    return floors;
  }

  private static Optional<DrillRecord> read(String journal) {
    try {
      return Optional.of(JournalReader.read(Path.of(journal)));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // moved, deleted or not a journal: that run gives no floor
    }
  }

  /** {@code source} names the store and the filters, for the page's header line. */
  public static String render(
      String source, List<DetectionRecord> records, Map<String, OptionalDouble> floors) {
    Map<String, List<DetectionRecord>> byAlert = new LinkedHashMap<>();
    records.stream()
        .sorted(Comparator.comparing(DetectionRecord::runAt))
        .forEach(
            r -> byAlert.computeIfAbsent(r.alertKey(), k -> new java.util.ArrayList<>()).add(r));
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src"
                + " 'unsafe-inline'\">\n")
        .append("<title>Detection history</title>\n<style>\n")
        .append(HtmlReport.styles())
        .append("</style>\n</head>\n<body>\n<h1>Detection history</h1>\n<p class=\"meta\">")
        .append(esc(source))
        .append(": ")
        .append(records.size())
        .append(records.size() == 1 ? " row, " : " rows, ")
        .append(byAlert.size())
        .append(byAlert.size() == 1 ? " alert" : " alerts")
        .append("</p>\n");
    if (records.isEmpty()) {
      h.append("<p id=\"empty\">No detection history matches.</p>\n");
    } else {
      h.append("<p class=\"legend\"><span>solid: time to detect</span><span>dashed: time to")
          .append(
              " notify</span><span>red dashes: the floor</span><span>x: did not fire</span></p>\n");
    }
    byAlert.forEach(
        (key, runs) -> {
          h.append("<section class=\"alert-history\">\n<h2>").append(esc(key)).append("</h2>\n");
          List<DetectionRecord> charted =
              runs.stream().filter(r -> r.expectedToFire() && !r.simulated()).toList();
          OptionalDouble floor = floors.getOrDefault(key, OptionalDouble.empty());
          if (!charted.isEmpty()) {
            h.append(TrendSvg.render(key, charted, floor));
          }
          h.append("<p class=\"meta\">floor: ")
              .append(
                  floor.isPresent() ? floor.getAsDouble() + "s" : "unknown (no readable journal)")
              .append("</p>\n");
          table(h, runs);
          h.append("</section>\n");
        });
    return h.append("</body>\n</html>\n").toString();
  }

  private static void table(StringBuilder h, List<DetectionRecord> runs) {
    h.append("<table class=\"history-runs\">\n<tr><th>date (UTC)</th><th>experiment</th>")
        .append(
            "<th>fired</th><th>detect</th><th>notify</th><th>routing</th><th>result</th></tr>\n");
    for (DetectionRecord r : runs) {
      h.append("<tr><td>")
          .append(MINUTE.format(r.runAt()))
          .append("</td><td>")
          .append(esc(r.experiment() + (r.simulated() ? " (simulated)" : "")))
          .append("</td><td>")
          .append(r.expectedToFire() ? (r.fired() ? "yes" : "no") : "(expect silent)")
          .append("</td><td>")
          .append(seconds(r.timeToDetect()))
          .append("</td><td>")
          .append(seconds(r.timeToNotify()))
          .append("</td><td>")
          .append(esc(r.routing()))
          .append("</td><td>")
          .append(r.held() ? "held" : "FAILED")
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  private static String seconds(Optional<Duration> d) {
    return d.map(Durations::seconds).orElse("-");
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;")
        .replace("'", "&#39;");
  }
}
