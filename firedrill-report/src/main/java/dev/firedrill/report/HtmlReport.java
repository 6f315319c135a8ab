package dev.firedrill.report;

import dev.firedrill.experiment.Numbers;
import dev.firedrill.report.DrillRecord.Alert;
import dev.firedrill.report.Findings.Gap;
import dev.firedrill.time.Durations;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One self-contained HTML file: inline CSS and SVG, no script, and a content security policy that
 * forbids loading anything, so the report opens the same from a ticket, a CI artifact or a laptop
 * without network.
 */
public final class HtmlReport {

  private static final DateTimeFormatter DATE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

  private static final String CSS =
      """
      body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1000px;color:#1d2430;padding:0 16px}
      h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #dde2ea;padding-bottom:4px}
      .meta{color:#5b6575;margin:0 0 12px}.simulated{background:#fff4d6;border-left:4px solid #c98a00;padding:8px 12px}.hypothesis{background:#f4f6f9;border-left:4px solid #8a95a8;padding:8px 12px}
      .verdict{display:inline-block;padding:3px 10px;border-radius:4px;font-weight:600;color:#fff;background:#6b7280}
      .verdict.held{background:#1f8a4c}.verdict.deviated,.verdict.aborted,.verdict.failed{background:#c0392b}
      .verdict.inconclusive,.verdict.not-run,.verdict.refused,.verdict.unfinished{background:#b7791f}
      table{border-collapse:collapse;width:100%;font-size:13px}th,td{border:1px solid #dde2ea;padding:4px 6px;text-align:left;vertical-align:top}
      th{background:#f4f6f9}tr.failed td{background:#fdecea}tr.unknown td{background:#f4f4f4}td.num{text-align:right;font-variant-numeric:tabular-nums}
      dl.facts{display:grid;grid-template-columns:max-content auto;gap:2px 16px;margin:8px 0}dl.facts dt{color:#5b6575}dl.facts dd{margin:0}
      svg.chart{display:block;max-width:100%;height:auto;font-size:11px}
      .panel-frame{fill:#fff;stroke:#dde2ea}.panel-title{font-weight:600;fill:#1d2430}.panel-range,.y-label,.tick-label,.axis-label{fill:#5b6575}
      .sli-line,.recovery-line{fill:none;stroke:#2563eb;stroke-width:2}.guard-line,.recovery-line.guard{fill:none;stroke:#7c3aed;stroke-width:2}.sli-line.control,.recovery-line.control{stroke:#6b7280;stroke-dasharray:5 3}
      .threshold{stroke:#c0392b;stroke-width:1.5;stroke-dasharray:6 4}
      .sample{fill:#2563eb}.sample.breach{fill:#c0392b}.sample.no-data,.sample.error{fill:#9ca3af}
      #fault-window{fill:#f59e0b;fill-opacity:.16;stroke:#f59e0b;stroke-opacity:.5}
      .mark{stroke-width:2}.mark.abort{stroke:#c0392b}.mark.rollback{stroke:#374151;stroke-dasharray:4 3}.mark.recovered{stroke:#1f8a4c}
      .mark-label{font-weight:600}.mark-label.abort{fill:#c0392b}.mark-label.rollback{fill:#374151}.mark-label.recovered{fill:#1f8a4c}.mark-label.fault{fill:#b45309}
      .axis,.tick{stroke:#8a95a8}.lane-label{fill:#1d2430}
      .alert-window{stroke:#cbd2dc;stroke-width:6;stroke-linecap:round}.alert-window.silent{stroke:#e5e7eb}
      .alert-mark{stroke:#fff;stroke-width:1.5}.alert-mark.pending{fill:#f59e0b}.alert-mark.firing{fill:#c0392b}.alert-mark.notified{fill:#2563eb}
      .budget-bar.planned{fill:#cbd2dc}.budget-bar.measured{fill:#2563eb}#budget-ceiling{stroke:#c0392b;stroke-width:2;stroke-dasharray:5 3}.mark-label.ceiling{fill:#c0392b}
      .legend span{margin-right:14px}.dot{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:4px;vertical-align:-1px}
      .dot.pending{background:#f59e0b}.dot.firing{background:#c0392b}.dot.notified{background:#2563eb}.dot.window{background:#f59e0b;opacity:.35;border-radius:2px}
      code{font-size:12px;background:#f4f6f9;padding:1px 4px;border-radius:3px;word-break:break-all}
      details summary{cursor:pointer;color:#374151}
      """;

  private HtmlReport() {}

  /** The report's style sheet, for a page that shows parts of several drills (a suite's). */
  public static String styles() {
    return CSS;
  }

  /** The detection table of {@link #render}, for a page that shows several drills' tables. */
  public static String detectionTable(List<Alert> alerts) {
    StringBuilder h = new StringBuilder();
    detection(h, alerts);
    return h.toString();
  }

  public static String render(DrillRecord r) {
    DrillRecord.Experiment e = r.experiment();
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>")
        .append(
            esc(
                (r.simulated() ? "SIMULATED " : "")
                    + e.id()
                    + ": "
                    + r.verdict()
                    + " - "
                    + e.title()))
        .append("</title>\n")
        .append("<style>\n")
        .append(CSS)
        .append("</style>\n</head>\n<body>\n");
    h.append("<h1 id=\"title\">").append(esc(e.title())).append("</h1>\n");
    if (r.simulated()) {
      h.append("<p id=\"simulated\" class=\"simulated\"><strong>")
          .append(esc(DrillRecord.SIMULATED))
          .append("</strong></p>\n");
    }
    h.append("<p class=\"meta\">firedrill drill <code>")
        .append(esc(e.id()))
        .append("</code>")
        .append(e.owner().isEmpty() ? "" : ", owner " + esc(e.owner()))
        .append(", started ")
        .append(DATE.format(r.startedAt()))
        .append("</p>\n");
    h.append("<p><span id=\"verdict\" class=\"verdict ")
        .append(esc(r.verdict()))
        .append("\">")
        .append(esc(r.verdict()))
        .append("</span> <span id=\"verdict-reason\">")
        .append(esc(r.reason()))
        .append("</span></p>\n");
    r.detection()
        .ifPresent(
            d ->
                h.append("<p>Observability: <span id=\"observability-verdict\" class=\"verdict ")
                    .append(esc(d.verdict()))
                    .append("\">")
                    .append(esc(d.verdict()))
                    .append("</span> ")
                    .append(esc(d.reason()))
                    .append("</p>\n"));
    if (!r.rollbackOk() && !DrillRecord.UNFINISHED.equals(r.verdict())) {
      h.append(
          "<p class=\"verdict failed\" id=\"rollback-failed\">A rollback failed: a fault needs a human</p>\n");
    }
    h.append("<p class=\"hypothesis\" id=\"hypothesis\">")
        .append(esc(e.hypothesis()))
        .append("</p>\n");
    facts(h, r);

    h.append(
            "<h2>Timeline</h2>\n<p class=\"legend\"><span><span class=\"dot window\"></span>faults on</span>")
        .append("<span><span class=\"dot pending\"></span>alert pending</span>")
        .append("<span><span class=\"dot firing\"></span>alert firing</span>")
        .append("<span><span class=\"dot notified\"></span>notification received</span>")
        .append("<span>dashed red: threshold</span></p>\n");
    h.append(TimelineSvg.render(r));

    h.append("<h2>Recovery</h2>\n");
    Optional<String> recovery = RecoverySvg.render(r);
    h.append("<p id=\"recovery-time\">").append(esc(recoveryText(r))).append("</p>\n");
    recovery.ifPresent(h::append);

    List<Alert> alerts = r.detection().map(DrillRecord.Detection::alerts).orElse(List.of());
    h.append("<h2>Detection</h2>\n");
    if (alerts.isEmpty()) {
      h.append("<p>The experiment expects no alerts.</p>\n");
    } else {
      detection(h, alerts);
    }

    h.append("<h2>Error budget</h2>\n");
    Budget budget = Budget.of(r);
    if (budget.known()) {
      h.append("<p id=\"budget-text\">")
          .append(esc(MarkdownReport.budgetLine(budget)))
          .append("</p>\n");
      h.append(BudgetSvg.render(budget));
    }
    if (!budget.text().isEmpty()) {
      h.append("<p class=\"meta\">").append(esc(budget.text())).append("</p>\n");
    } else {
      h.append("<p>The experiment sets no error budget.</p>\n");
    }

    h.append("<h2>Gaps</h2>\n");
    List<Gap> gaps = Findings.gaps(r);
    if (gaps.isEmpty()) {
      h.append("<p id=\"gaps\">None found.</p>\n");
    } else {
      h.append("<ol id=\"gaps\">\n");
      gaps.forEach(
          g ->
              h.append("<li>")
                  .append(esc(g.text()))
                  .append("<br><em>Action:</em> ")
                  .append(esc(g.action()))
                  .append("</li>\n"));
      h.append("</ol>\n");
    }

    h.append(
        "<h2>Steady state</h2>\n<table id=\"slis\">\n<tr><th>SLI</th><th>healthy</th><th>query</th></tr>\n");
    for (DrillRecord.Sli sli : e.slis()) {
      h.append("<tr><td>")
          .append(esc(sli.name()))
          .append("</td><td>")
          .append(esc(sli.range().text()))
          .append("</td><td><code>")
          .append(esc(sli.query()))
          .append("</code></td></tr>\n");
    }
    e.burnRate()
        .ifPresent(
            b ->
                h.append("<tr><td>burn_rate</td><td>&lt;= ")
                    .append(esc(Numbers.format(b.max())))
                    .append("</td><td><code>")
                    .append(esc(b.errorRatioQuery()))
                    .append("</code></td></tr>\n"));
    h.append("</table>\n");

    List<ControlRows.Row> control = ControlRows.of(r);
    if (!control.isEmpty()) {
      h.append(
          "<h2>Experiment vs control</h2>\n<table id=\"control\">\n<tr><th>SLI</th><th>at</th>"
              + "<th>phase</th><th>experiment</th><th>control</th><th>delta</th><th>ratio</th>"
              + "<th>status</th></tr>\n");
      for (ControlRows.Row row : control) {
        h.append("<tr><td>").append(esc(row.sli())).append("</td>");
        for (String cell : row.cells()) {
          h.append("<td class=\"num\">").append(esc(cell)).append("</td>");
        }
        h.append("</tr>\n");
      }
      h.append("</table>\n");
    }

    h.append("<details>\n<summary>Events (")
        .append(r.events().size())
        .append(")</summary>\n")
        .append("<table id=\"events\">\n<tr><th>at</th><th>phase</th><th>event</th></tr>\n");
    for (DrillRecord.Event ev : r.events()) {
      h.append("<tr><td class=\"num\">+")
          .append(esc(MarkdownReport.seconds(r.seconds(ev.at()))))
          .append("</td><td>")
          .append(esc(ev.phase()))
          .append("</td><td>")
          .append(esc(ev.text()))
          .append("</td></tr>\n");
    }
    h.append("</table>\n</details>\n</body>\n</html>\n");
    return h.toString();
  }

  private static void facts(StringBuilder h, DrillRecord r) {
    h.append("<dl class=\"facts\" id=\"facts\">\n");
    fact(
        h,
        "planned",
        Durations.format(r.experiment().duration())
            + " of faults, measured every "
            + Durations.format(r.experiment().interval()));
    r.injectedAt().ifPresent(at -> fact(h, "injected", offset(r, at)));
    r.abortedAt()
        .ifPresent(at -> fact(h, "aborted", offset(r, at) + ": " + r.abortReason().orElse("")));
    r.rollbackAt()
        .ifPresent(
            at ->
                fact(
                    h,
                    "rollback",
                    offset(r, at)
                        + (r.rollbackOk()
                            ? ", every fault reverted"
                            : ", a fault is NOT reverted")));
    r.recoveredAt().ifPresent(at -> fact(h, "recovered", offset(r, at)));
    for (DrillRecord.Fault f : r.faults()) {
      fact(
          h,
          "fault " + f.kind(),
          f.injectedAt().map(at -> "on " + offset(r, at)).orElse("not injected")
              + f.revertedAt()
                  .map(at -> ", reverted " + offset(r, at) + (f.reverted() ? "" : " (FAILED)"))
                  .orElse("")
              + (f.revertDetail().isEmpty() ? "" : ": " + f.revertDetail()));
    }
    h.append("</dl>\n");
  }

  private static void fact(StringBuilder h, String name, String value) {
    h.append("<dt>").append(esc(name)).append("</dt><dd>").append(esc(value)).append("</dd>\n");
  }

  private static void detection(StringBuilder h, List<Alert> alerts) {
    h.append(
            "<table id=\"detection\">\n<tr><th>alert</th><th>expected</th><th>fired</th><th>pending</th>")
        .append(
            "<th>time to detect</th><th>floor</th><th>time to notify</th><th>receiver</th><th>runbook</th>")
        .append("<th>dashboard</th><th>result</th></tr>\n");
    for (Alert a : alerts) {
      h.append("<tr class=\"")
          .append(a.result().toLowerCase(java.util.Locale.ROOT))
          .append("\" data-alert=\"")
          .append(esc(a.describe()))
          .append("\"><td>")
          .append(esc(a.describe()))
          .append("</td><td>")
          .append(esc(a.expect()))
          .append(' ')
          .append(esc(Numbers.format(a.withinS())))
          .append("s</td><td>")
          .append(a.fired() ? "yes" : "no")
          .append("</td><td class=\"num\">")
          .append(time(a.pendingS()))
          .append("</td><td class=\"num\">")
          .append(time(a.timeToDetectS()))
          .append("</td><td class=\"num\">")
          .append(time(a.floorS()))
          .append("</td><td class=\"num\">")
          .append(time(a.timeToNotifyS()))
          .append("</td><td title=\"")
          .append(esc(a.receiverDetail()))
          .append("\">")
          .append(esc(a.receiver()))
          .append("</td><td title=\"")
          .append(esc(a.runbookDetail()))
          .append("\">")
          .append(esc(a.runbook()))
          .append("</td><td>")
          .append(esc(a.dashboard()))
          .append("</td><td>")
          .append(a.result())
          .append(": ")
          .append(esc(a.reason()))
          .append("</td></tr>\n");
    }
    h.append(
        "</table>\n<p class=\"meta\">Pending and time to detect are seconds after injection; time to notify "
            + "is from the alert's startsAt to the webhook's arrival.</p>\n");
  }

  private static String recoveryText(DrillRecord r) {
    if (r.recoverySeconds().isPresent()) {
      return "Back in steady state "
          + MarkdownReport.seconds(r.recoverySeconds().getAsDouble())
          + " after the rollback (the hypothesis allows "
          + Durations.format(r.experiment().recovery())
          + ").";
    }
    if (r.rollbackAt().isEmpty()) {
      return "No rollback: nothing was injected.";
    }
    return "Not back in steady state within "
        + Durations.format(r.experiment().recovery())
        + " of the rollback.";
  }

  private static String offset(DrillRecord r, Instant at) {
    return "+" + MarkdownReport.seconds(r.seconds(at));
  }

  private static String time(OptionalDouble seconds) {
    return seconds.isPresent() ? MarkdownReport.seconds(seconds.getAsDouble()) : "-";
  }

  private static String esc(String s) {
    return Escape.xml(s);
  }
}
