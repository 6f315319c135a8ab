package dev.firedrill.report;

import dev.firedrill.experiment.Numbers;
import dev.firedrill.report.DrillRecord.Alert;
import dev.firedrill.report.Findings.Gap;
import dev.firedrill.report.Findings.SliCourse;
import dev.firedrill.time.Durations;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The results write-up a team attaches to a ticket: hypothesis, actual behaviour, gaps, recovery
 * time and actions, in the shape of the usual chaos-experiment results template.
 */
public final class MarkdownReport {

  private static final DateTimeFormatter DATE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

  private static final java.util.regex.Pattern TAG_START =
      java.util.regex.Pattern.compile("<(?=[A-Za-z/!?])");

  private MarkdownReport() {}

  public static String render(DrillRecord r) {
    StringBuilder md = new StringBuilder();
    DrillRecord.Experiment e = r.experiment();
    List<Alert> alerts = r.detection().map(DrillRecord.Detection::alerts).orElse(List.of());
    md.append("## Experiment: ").append(text(e.title())).append("\n\n");
    if (r.simulated()) {
      md.append("> **").append(DrillRecord.SIMULATED).append("**\n\n");
    }
    md.append("Experiment: ")
        .append(code(e.id()))
        .append(e.owner().isEmpty() ? "" : ", owner " + text(e.owner()))
        .append("  \n");
    md.append("Date: ").append(DATE.format(r.startedAt())).append("  \n");
    md.append("Duration: ").append(Durations.format(e.duration())).append(" planned");
    faultsOn(r).ifPresent(s -> md.append("; faults on for ").append(s));
    md.append("  \n");
    md.append("Faults: ")
        .append(text(String.join(", ", r.faults().stream().map(DrillRecord.Fault::kind).toList())))
        .append("  \n");
    md.append("Verdict: **")
        .append(r.verdict())
        .append("**: ")
        .append(text(r.reason()))
        .append("  \n");
    r.detection()
        .ifPresent(
            d ->
                md.append("Observability: **")
                    .append(d.verdict())
                    .append("**: ")
                    .append(text(d.reason()))
                    .append("  \n"));
    Budget budget = Budget.of(r);
    if (budget.known()) {
      md.append("Error budget: ").append(budgetLine(budget)).append("  \n");
    }

    md.append("\n### Hypothesis\n\n").append(text(e.hypothesis())).append("\n\n");
    for (DrillRecord.Sli sli : e.slis()) {
      md.append("- ")
          .append(text(sli.name()))
          .append(" stays ")
          .append(text(sli.range().text()))
          .append(" (")
          .append(code(sli.query()))
          .append(")\n");
    }
    e.burnRate()
        .ifPresent(
            b ->
                md.append("- the burn rate stays ")
                    .append(text("<= " + Numbers.format(b.max())))
                    .append(" (objective ")
                    .append(Numbers.format(b.objective() * 100))
                    .append("% over ")
                    .append(Durations.format(b.window()))
                    .append(")\n"));
    for (Alert a : alerts) {
      md.append("- ")
          .append(text(a.describe()))
          .append(a.expectsFiring() ? " fires within " : " stays silent for ")
          .append(Numbers.format(a.withinS()))
          .append(a.expectsFiring() ? "s of injection\n" : "s after injection\n");
    }
    md.append("- back in steady state within ")
        .append(Durations.format(e.recovery()))
        .append(" of the rollback\n");

    md.append("\n### Actual Behavior\n\n");
    for (SliCourse c : Findings.courses(r)) {
      md.append("- ")
          .append(text(c.name()))
          .append(": ")
          .append(
              c.before().isPresent()
                  ? Numbers.format(c.before().getAsDouble()) + " before"
                  : "no value before");
      if (c.worstDuring().isPresent()) {
        md.append("; ")
            .append(c.range().lowerBoundOnly() ? "lowest " : "highest ")
            .append(Numbers.format(c.worstDuring().getAsDouble()))
            .append(" while the faults were on");
      }
      md.append(c.breaches() > 0 ? " (gap)" : " (within " + text(c.range().text()) + ")")
          .append('\n');
    }
    List<ControlRows.Row> control = ControlRows.of(r);
    if (!control.isEmpty()) {
      md.append("\n### Experiment vs control\n\n")
          .append("| SLI | at | phase | experiment | control | delta | ratio | status |\n")
          .append("|---|---|---|---|---|---|---|---|\n");
      for (ControlRows.Row row : control) {
        md.append("| ").append(text(row.sli()));
        row.cells().forEach(cell -> md.append(" | ").append(text(cell)));
        md.append(" |\n");
      }
      md.append('\n');
    }
    double injected = r.injectedAt().map(r::seconds).orElse(0.0);
    r.abortedAt()
        .ifPresent(
            at ->
                md.append("- Aborted ")
                    .append(after(r.seconds(at) - injected))
                    .append(": ")
                    .append(text(r.abortReason().orElse("")))
                    .append('\n'));
    r.rollbackAt()
        .ifPresent(
            at ->
                md.append("- Rolled back ")
                    .append(after(r.seconds(at) - injected))
                    .append(
                        r.rollbackOk() ? ", every fault reverted" : ", and a fault is NOT reverted")
                    .append('\n'));
    for (Alert a : alerts) {
      md.append("- ")
          .append(text(a.describe()))
          .append(": ")
          .append(text(alertBehaviour(a)))
          .append('\n');
    }

    md.append("\n### Gaps\n\n");
    List<Gap> gaps = Findings.gaps(r);
    if (gaps.isEmpty()) {
      md.append("None found: the system and its alerts behaved as the hypothesis says.\n");
    }
    for (int i = 0; i < gaps.size(); i++) {
      md.append(i + 1).append(". ").append(text(gaps.get(i).text())).append('\n');
    }

    md.append("\n### Recovery Time\n\n").append(recovery(r)).append('\n');

    md.append("\n### Actions\n\n");
    for (Gap gap : gaps) {
      md.append("- [ ] ").append(text(gap.action())).append('\n');
    }
    md.append(
        gaps.isEmpty()
            ? "- [ ] Re-run this drill on its schedule to catch regressions\n"
            : "- [ ] Re-run the experiment after the changes\n");
    return md.toString();
  }

  private static Optional<String> faultsOn(DrillRecord r) {
    return r.injectedAt()
        .flatMap(
            in ->
                r.rollbackDoneAt()
                    .or(r::rollbackAt)
                    .map(out -> seconds(r.seconds(out) - r.seconds(in))));
  }

  private static String alertBehaviour(Alert a) {
    if (a.unknown()) {
      // The stack could not be read: whether it fired, or where it went, is not known.
      return "unknown: " + a.reason();
    }
    if (!a.fired()) {
      return a.expectsFiring()
          ? "did not fire within " + Numbers.format(a.withinS()) + "s (gap)"
          : "stayed silent for " + Numbers.format(a.withinS()) + "s after injection";
    }
    StringBuilder s = new StringBuilder("fired");
    a.timeToDetectS().ifPresent(d -> s.append(' ').append(seconds(d)).append(" after injection"));
    a.timeToNotifyS().ifPresent(n -> s.append(", notified ").append(seconds(n)).append(" later"));
    if (!"-".equals(a.receiver())) {
      s.append("; ").append(a.receiverDetail());
    }
    s.append(a.held() ? "" : " (gap: " + a.reason() + ")");
    return s.toString();
  }

  private static String recovery(DrillRecord r) {
    String allowed = Durations.format(r.experiment().recovery());
    if (r.recoverySeconds().isPresent()) {
      return seconds(r.recoverySeconds().getAsDouble())
          + " from the rollback to steady state (the hypothesis allows "
          + allowed
          + ").";
    }
    if (r.rollbackAt().isEmpty()) {
      return "No rollback: nothing was injected.";
    }
    return "Not back in steady state within " + allowed + " of the rollback.";
  }

  static String budgetLine(Budget b) {
    StringBuilder s = new StringBuilder();
    b.measuredPercent()
        .ifPresent(
            m -> s.append(BudgetSvg.format(m)).append("% spent (measured from the burn rate)"));
    b.plannedPercent()
        .ifPresent(
            p ->
                s.append(s.isEmpty() ? "" : ", ")
                    .append("worst case ")
                    .append(BudgetSvg.format(p))
                    .append('%'));
    b.ceilingPercent()
        .ifPresent(c -> s.append(" against a ceiling of ").append(BudgetSvg.format(c)).append('%'));
    return s.toString();
  }

  private static String after(double seconds) {
    return seconds(seconds) + " after injection";
  }

  static String seconds(double seconds) {
    return String.format(Locale.ROOT, "%.1fs", seconds);
  }

  /**
   * Ticket systems render inline HTML, so a title must stay text. Only a {@code <} that can open a
   * tag (before a letter, {@code /}, {@code !} or {@code ?}, as CommonMark reads raw HTML) is
   * escaped, so ranges such as {@code <= 0.01} stay readable as plain text.
   */
  static String text(String s) {
    return TAG_START.matcher(s).replaceAll("&lt;");
  }

  /** A code span long enough that backticks inside cannot end it. */
  private static String code(String s) {
    String fence = s.contains("``") ? "```" : s.contains("`") ? "``" : "`";
    String pad = fence.length() > 1 ? " " : "";
    return fence + pad + s + pad + fence;
  }
}
