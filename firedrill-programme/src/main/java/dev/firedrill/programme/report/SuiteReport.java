package dev.firedrill.programme.report;

import dev.firedrill.engine.JournalPaths;
import dev.firedrill.history.DetectionRecord;
import dev.firedrill.programme.coverage.Coverage;
import dev.firedrill.programme.coverage.CoverageText;
import dev.firedrill.programme.suite.Cooldown;
import dev.firedrill.programme.suite.SuiteResult;
import dev.firedrill.programme.trend.TrendSvg;
import dev.firedrill.report.DrillRecord;
import dev.firedrill.report.HtmlReport;
import dev.firedrill.report.JournalReader;
import dev.firedrill.report.JunitReport;
import dev.firedrill.report.MarkdownReport;
import dev.firedrill.time.Durations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A suite's one report in three forms, built from each drill's journal as it ended up on disk and
 * from the drill's own renderers: HTML (a row per drill, its detection table, a link to its own
 * report), Markdown (a summary table, then each drill's write-up), and JUnit XML (a test suite per
 * drill inside one {@code <testsuites>}).
 */
public final class SuiteReport {

  /**
   * One drill of the report; {@code record} is empty for a skipped drill or an unreadable journal.
   */
  record Item(
      int index,
      String experimentId,
      Path file,
      Optional<DrillRecord> record,
      Optional<Path> journal,
      Optional<Cooldown.Waited> cooldown,
      int exitCode,
      String unran,
      String note) {}

  private final SuiteResult result;
  private final List<Item> items;
  private final List<DetectionRecord> history;
  private final Optional<Coverage.Report> coverage;

  private SuiteReport(
      SuiteResult result,
      List<Item> items,
      List<DetectionRecord> history,
      Optional<Coverage.Report> coverage) {
    this.result = result;
    this.items = List.copyOf(items);
    this.history = List.copyOf(history);
    this.coverage = coverage;
  }

  /**
   * With a trend chart per alert the suite drilled, over its runs in {@code history} (this suite's
   * included once it has recorded them).
   */
  public SuiteReport withHistory(List<DetectionRecord> history) {
    return new SuiteReport(result, items, history, coverage);
  }

  /** With the coverage table of the rules the suite's Prometheus evaluates. */
  public SuiteReport withCoverage(Coverage.Report coverage) {
    return new SuiteReport(result, items, history, Optional.of(coverage));
  }

  /** Reads every journal of the suite's drills; one that cannot be read is noted, not fatal. */
  public static SuiteReport of(SuiteResult result) {
    List<Item> items = new ArrayList<>();
    int index = 0;
    for (SuiteResult.Drill drill : result.drills()) {
      index++;
      String id = drill.entry().experiment().id();
      Path file = drill.entry().file();
      if (drill instanceof SuiteResult.Ran ran) {
        Path journal = ran.launched().journal();
        Optional<DrillRecord> record;
        String note = "";
        try {
          record = Optional.of(JournalReader.read(journal));
        } catch (IOException | RuntimeException e) {
          record = Optional.empty();
          note = "journal " + journal + " unreadable: " + e.getMessage();
        }
        items.add(
            new Item(
                index,
                id,
                file,
                record,
                Optional.of(journal),
                ran.cooldown(),
                ran.launched().exitCode(),
                "unreadable",
                note));
      } else if (drill instanceof SuiteResult.Skipped skipped) {
        items.add(
            new Item(
                index,
                id,
                file,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                5,
                "skipped",
                skipped.reason()));
      } else if (drill instanceof SuiteResult.Locked locked) {
        items.add(
            new Item(
                index,
                id,
                file,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                5,
                "not-run",
                locked.reason()));
      }
    }
    return new SuiteReport(result, items, List.of(), Optional.empty());
  }

  /**
   * Writes {@code <stem>.html}, {@code .md} and {@code .xml} in {@code dir}; returns their paths.
   */
  public List<Path> write(Path dir, String stem) throws IOException {
    Files.createDirectories(dir);
    Path html = dir.resolve(stem + ".html");
    Path md = dir.resolve(stem + ".md");
    Path xml = dir.resolve(stem + ".xml");
    Files.writeString(html, html(dir));
    Files.writeString(md, markdown());
    Files.writeString(xml, junit());
    return List.of(html, md, xml);
  }

  /**
   * The HTML page; links to each drill's report are relative to {@code dir}, where it is written.
   */
  public String html(Path dir) {
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src"
                + " 'unsafe-inline'\">\n")
        .append("<title>Suite ")
        .append(esc(result.suite().id()))
        .append("</title>\n<style>\n")
        .append(HtmlReport.styles())
        .append("</style>\n</head>\n<body>\n<h1>Suite ")
        .append(esc(result.suite().id()))
        .append("</h1>\n<p class=\"meta\">")
        .append(esc(result.suite().file().toString()))
        .append(": ")
        .append(summary())
        .append("; exit code ")
        .append(result.exitCode())
        .append("</p>\n<table id=\"drills\">\n<tr><th>#</th><th>experiment</th><th>system</th>")
        .append("<th>observability</th><th>rollback</th><th>cooldown before</th><th>exit</th>")
        .append("<th>report</th></tr>\n");
    for (Item item : items) {
      String verdict = verdict(item);
      h.append("<tr class=\"drill ")
          .append(esc(verdict))
          .append("\" data-experiment=\"")
          .append(esc(item.experimentId()))
          .append("\"><td class=\"num\">")
          .append(item.index())
          .append("</td><td>")
          .append(esc(item.experimentId()))
          .append("</td><td><span class=\"verdict ")
          .append(esc(verdict))
          .append("\">")
          .append(esc(verdict))
          .append("</span>")
          .append(item.note().isEmpty() ? "" : " " + esc(item.note()))
          .append("</td><td>")
          .append(esc(observability(item)))
          .append("</td><td>")
          .append(item.record().map(r -> r.rollbackOk() ? "clean" : "NEEDS A HUMAN").orElse(""))
          .append("</td><td>")
          .append(esc(cooldown(item)))
          .append("</td><td class=\"num\">")
          .append(item.exitCode())
          .append("</td><td>");
      item.journal()
          .map(j -> JournalPaths.beside(j, ".html"))
          .filter(Files::exists)
          .ifPresent(
              page ->
                  h.append("<a href=\"")
                      .append(esc(link(dir, page)))
                      .append("\">")
                      .append(esc(page.getFileName().toString()))
                      .append("</a>"));
      h.append("</td></tr>\n");
    }
    h.append("</table>\n");
    for (Item item : items) {
      List<DrillRecord.Alert> alerts =
          item.record()
              .flatMap(DrillRecord::detection)
              .map(DrillRecord.Detection::alerts)
              .orElse(List.of());
      if (alerts.isEmpty()) {
        continue;
      }
      h.append("<h2 id=\"drill-")
          .append(item.index())
          .append("\">")
          .append(item.index())
          .append(". ")
          .append(esc(item.experimentId()))
          .append(": detection</h2>\n")
          .append(HtmlReport.detectionTable(alerts));
    }
    trends(h);
    coverage.ifPresent(c -> coverage(h, c));
    h.append("</body>\n</html>\n");
    return h.toString();
  }

  /**
   * A chart per alert key the suite expected to fire, its runs from the history oldest first, its
   * floor the one measured by the latest drill of this suite that expected it.
   */
  private void trends(StringBuilder h) {
    Map<String, OptionalDouble> floors = new LinkedHashMap<>();
    for (Item item : items) {
      for (DrillRecord.Alert a :
          item.record()
              .flatMap(DrillRecord::detection)
              .map(DrillRecord.Detection::alerts)
              .orElse(List.of())) {
        if (a.expectsFiring()) {
          floors.put(a.describe(), a.floorS());
        }
      }
    }
    StringBuilder charts = new StringBuilder();
    floors.forEach(
        (key, floor) -> {
          List<DetectionRecord> runs =
              history.stream()
                  .filter(r -> !r.simulated() && r.alertKey().equals(key) && r.expectedToFire())
                  .sorted(java.util.Comparator.comparing(DetectionRecord::runAt))
                  .toList();
          if (!runs.isEmpty()) {
            charts.append(TrendSvg.render(key, runs, floor));
          }
        });
    if (charts.length() > 0) {
      h.append("<h2 id=\"trends\">Trends: time to detect and to notify over the runs</h2>\n")
          .append("<p class=\"legend\"><span>solid: time to detect</span><span>dashed: time to")
          .append(
              " notify</span><span>red dashes: the floor</span><span>x: did not fire</span></p>\n")
          .append(charts);
    }
  }

  private static void coverage(StringBuilder h, Coverage.Report report) {
    List<List<String>> cells = CoverageText.cells(report);
    h.append("<h2 id=\"coverage\">Alert coverage</h2>\n<p class=\"meta\">")
        .append(esc(report.summary()))
        .append("</p>\n<table id=\"coverage-table\">\n");
    for (int i = 0; i < cells.size(); i++) {
      String cell = i == 0 ? "th" : "td";
      h.append("<tr>");
      for (String value : cells.get(i)) {
        h.append('<')
            .append(cell)
            .append('>')
            .append(esc(value))
            .append("</")
            .append(cell)
            .append('>');
      }
      h.append("</tr>\n");
    }
    h.append("</table>\n");
  }

  public String markdown() {
    StringBuilder md = new StringBuilder();
    md.append("# Suite ").append(result.suite().id()).append("\n\n");
    md.append(summary()).append("; exit code ").append(result.exitCode()).append(".\n\n");
    md.append("| # | experiment | system | observability | rollback | cooldown before |\n");
    md.append("|---|---|---|---|---|---|\n");
    for (Item item : items) {
      md.append("| ")
          .append(item.index())
          .append(" | `")
          .append(item.experimentId())
          .append("` | ")
          .append(verdict(item))
          .append(item.note().isEmpty() ? "" : ": " + item.note().replace("|", "\\|"))
          .append(" | ")
          .append(observability(item))
          .append(" | ")
          .append(item.record().map(r -> r.rollbackOk() ? "clean" : "needs a human").orElse(""))
          .append(" | ")
          .append(cooldown(item))
          .append(" |\n");
    }
    for (Item item : items) {
      item.record().ifPresent(r -> md.append("\n").append(MarkdownReport.render(r)));
    }
    return md.toString();
  }

  /** Each drill's own JUnit suite; a skipped drill is a suite with one skipped case. */
  public String junit() {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.append("<testsuites name=\"firedrill.suite.")
        .append(esc(result.suite().id()))
        .append("\">\n");
    for (Item item : items) {
      if (item.record().isPresent()) {
        String own = JunitReport.render(item.record().get());
        xml.append(own.substring(own.indexOf("<testsuite ")));
      } else {
        String suite = "firedrill." + item.experimentId();
        xml.append("<testsuite name=\"")
            .append(esc(suite))
            .append("\" tests=\"1\" failures=\"0\" errors=\"")
            .append(item.journal().isPresent() ? 1 : 0)
            .append("\" skipped=\"")
            .append(item.journal().isPresent() ? 0 : 1)
            .append("\">\n  <testcase classname=\"")
            .append(esc(suite))
            .append("\" name=\"system hypothesis\">\n    <")
            .append(item.journal().isPresent() ? "error type=\"unreadable\"" : "skipped")
            .append(" message=\"")
            .append(esc(item.note()))
            .append("\"/>\n  </testcase>\n</testsuite>\n");
      }
    }
    xml.append("</testsuites>\n");
    return xml.toString();
  }

  /** "3 drills: 2 held, 1 deviated" in the suite's order of first appearance. */
  String summary() {
    java.util.Map<String, Integer> counts = new java.util.LinkedHashMap<>();
    for (Item item : items) {
      counts.merge(verdict(item), 1, Integer::sum);
    }
    List<String> parts = new ArrayList<>();
    counts.forEach((verdict, n) -> parts.add(n + " " + verdict));
    return items.size() + (items.size() == 1 ? " drill: " : " drills: ") + String.join(", ", parts);
  }

  private static String verdict(Item item) {
    if (item.record().isPresent()) {
      return item.record().get().verdict();
    }
    return item.unran();
  }

  private static String observability(Item item) {
    return item.record()
        .flatMap(DrillRecord::detection)
        .map(DrillRecord.Detection::verdict)
        .orElse("");
  }

  private static String cooldown(Item item) {
    return item.cooldown()
        .map(
            w ->
                Durations.seconds(w.waited())
                    + (w.quiet()
                        ? " (quiet)"
                        : " (limit reached: " + String.join(", ", w.still()) + ")"))
        .orElse("");
  }

  private static String link(Path dir, Path page) {
    try {
      return dir.toAbsolutePath().relativize(page.toAbsolutePath()).toString().replace('\\', '/');
    } catch (IllegalArgumentException e) {
      return page.toAbsolutePath().toUri().toString();
    }
  }

  private static String esc(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
