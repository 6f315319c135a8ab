package dev.firedrill.engine;

import dev.firedrill.alerting.DetectionTable;
import dev.firedrill.alerting.ObservabilityResult;
import dev.firedrill.time.Durations;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place a milestone becomes text: the console's lines and the journal's events. Most
 * milestones are one line; the plan and the detection table are several; some (a phase starting, a
 * fault about to be injected) are none, since the lines that follow say it.
 */
public final class MilestoneText {

  /** One line of what happened, as it happened. */
  public record Line(Duration offset, Phase phase, String text) {

    /** {@code +12.0s during ok: error_ratio 0.001 <= 0.005} */
    public String console() {
      return "+" + Durations.seconds(offset) + " " + phase.text() + " " + text;
    }
  }

  private MilestoneText() {}

  /** The console lines of {@code milestone}, in order. */
  public static List<String> console(Milestone milestone) {
    return lines(milestone).stream().map(Line::console).toList();
  }

  public static List<Line> lines(Milestone m) {
    List<Line> lines = new ArrayList<>();
    Duration offset = m.offset();
    if (m instanceof Milestone.Planned p) {
      p.budget().ifPresent(budget -> lines.add(new Line(offset, Phase.PLAN, budget.text())));
      for (Milestone.FaultActions fault : p.faults()) {
        fault
            .actions()
            .forEach(
                action ->
                    lines.add(new Line(offset, Phase.PLAN, fault.spec().kind() + ": " + action)));
      }
      p.refusals()
          .forEach(refusal -> lines.add(new Line(offset, Phase.PLAN, "refused: " + refusal)));
    } else if (m instanceof Milestone.Refused r) {
      lines.add(new Line(offset, Phase.VERDICT, Verdict.REFUSED.text() + ": " + r.reason()));
    } else if (m instanceof Milestone.Measured measured) {
      lines.add(
          new Line(
              offset,
              measured.phase(),
              measured.measurement().status().text() + ": " + measured.measurement().text()));
    } else if (m instanceof Milestone.SlowMeasurement slow) {
      lines.add(
          new Line(
              offset,
              slow.phase(),
              "slow: the measurement took "
                  + Durations.seconds(slow.took())
                  + ", longer than the "
                  + Durations.format(slow.interval())
                  + " interval (Prometheus answered slowly); the next one keeps the schedule"));
    } else if (m instanceof Milestone.DetectionIntervals intervals) {
      lines.add(new Line(offset, Phase.PREFLIGHT, intervals.text()));
    } else if (m instanceof Milestone.BudgetChecked budget) {
      lines.add(new Line(offset, Phase.PREFLIGHT, budget.budget().text()));
    } else if (m instanceof Milestone.FaultInjected f) {
      lines.add(
          new Line(
              offset,
              Phase.INJECT,
              f.applied()
                  ? f.spec().kind() + ": " + String.join("; ", f.actions())
                  : "failed: " + f.failure().get()));
    } else if (m instanceof Milestone.TargetsResolved t) {
      lines.add(
          new Line(
              offset,
              t.injected() ? Phase.INJECT : Phase.PREFLIGHT,
              "{{ targets }}: "
                  + (!t.injected()
                      ? "the whole group before injection"
                      : t.names().isEmpty()
                          ? "nothing selected, matches no name"
                          : String.join(", ", t.names()))));
    } else if (m instanceof Milestone.AlertStateChanged s) {
      lines.add(
          new Line(
              offset,
              Phase.DETECT,
              s.alert()
                  + " "
                  + s.state().text()
                  + (s.activation()
                      ? s.activeAt()
                          .map(at -> ", active since " + sinceInjection(s.injectedAt(), at))
                          .orElse("")
                      : "")));
    } else if (m instanceof Milestone.AlertRouted r) {
      lines.add(
          new Line(
              offset,
              Phase.DETECT,
              r.alert()
                  + " in Alertmanager, startsAt "
                  + sinceInjection(r.injectedAt(), r.startsAt())
                  + ", receivers "
                  + String.join(", ", r.receivers())));
    } else if (m instanceof Milestone.AlertNotified n) {
      lines.add(
          new Line(
              offset,
              Phase.DETECT,
              n.alert()
                  + " notified to "
                  + n.receiver()
                  + " at "
                  + sinceInjection(n.injectedAt(), n.receivedAt())
                  + " (startsAt "
                  + sinceInjection(n.injectedAt(), n.startsAt())
                  + ")"));
    } else if (m instanceof Milestone.Aborted a) {
      lines.add(new Line(offset, Phase.ABORT, a.reason()));
    } else if (m instanceof Milestone.FaultReverted r) {
      lines.add(
          new Line(
              offset,
              Phase.ROLLBACK,
              r.spec().kind()
                  + ": "
                  + (r.reverted()
                      ? r.detail() + " (attempt " + r.attempts() + ")"
                      : "FAILED after "
                          + r.attempts()
                          + " attempts: "
                          + r.detail()
                          + "; run by hand: "
                          + r.manualCommand().get())));
    } else if (m instanceof Milestone.AlertsJudged judged) {
      ObservabilityResult result = judged.result();
      DetectionTable.lines(result.rows())
          .forEach(line -> lines.add(new Line(offset, Phase.DETECT, line)));
      lines.add(
          new Line(
              offset,
              Phase.VERDICT,
              "observability " + result.verdict().text() + ": " + result.reason()));
    } else if (m instanceof Milestone.DrillFinished f) {
      lines.add(new Line(offset, Phase.VERDICT, f.verdict().text() + ": " + f.reason()));
      if (!f.rollbackOk()) {
        lines.add(
            new Line(
                offset,
                Phase.VERDICT,
                "ROLLBACK FAILED: run by hand: " + String.join(" && ", f.manualCommands())));
      }
    } else if (m instanceof Milestone.WatchdogStarted w) {
      lines.add(
          new Line(
              offset,
              Phase.INJECT,
              "watchdog PID "
                  + w.process().pid()
                  + " holds the ttl of the faults it enforces; it undoes them if firedrill stops"
                  + " renewing its lease for "
                  + dev.firedrill.time.Durations.format(w.grace())));
    } else if (m instanceof Milestone.JournalUnwritable j) {
      lines.add(new Line(offset, Phase.PLAN, "journal: " + j.message()));
    }
    return lines;
  }

  /** {@code +12.0s after injection}, or {@code -0.5s after injection} for what began before it. */
  private static String sinceInjection(Instant injectedAt, Instant at) {
    Duration d = Duration.between(injectedAt, at);
    return (d.isNegative() ? "-" : "+") + Durations.seconds(d.abs()) + " after injection";
  }
}
