package dev.firedrill.engine;

import dev.firedrill.guard.ErrorBudget;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Keeps the journal current milestone by milestone, and writes it to its file after each one, so
 * that a drill killed at any moment leaves the evidence up to its last step (a fault is journaled
 * as needing a revert before its injection starts). A file that cannot be written is reported once,
 * to {@code unwritable}, and never stops the drill or its rollback.
 */
final class JournalRecorder implements DrillObserver {

  private final Journal journal;
  private final Optional<JournalFile> file;
  private final Consumer<String> unwritable;
  private boolean broken;

  JournalRecorder(Journal journal, Optional<JournalFile> file, Consumer<String> unwritable) {
    this.journal = journal;
    this.file = file;
    this.unwritable = unwritable;
  }

  @Override
  public void on(Milestone milestone) {
    record(milestone);
    MilestoneText.lines(milestone).forEach(line -> journal.event(milestone.at(), line));
    write();
  }

  private void record(Milestone m) {
    if (m instanceof Milestone.Planned p) {
      journal.plan(p.refusals(), p.budget().map(ErrorBudget::text).orElse(null));
      p.faults()
          .forEach(fault -> journal.fault(fault.spec(), fault.actions(), fault.ttlEnforcedBy()));
    } else if (m instanceof Milestone.Refused r) {
      journal.verdict(Verdict.REFUSED, r.reason(), true, r.at());
    } else if (m instanceof Milestone.PhaseStarted p && p.phase() == Phase.INJECT) {
      journal.time("injected_at", p.at());
    } else if (m instanceof Milestone.PhaseStarted p && p.phase() == Phase.ROLLBACK) {
      journal.time("rollback_at", p.at());
    } else if (m instanceof Milestone.Measured measured) {
      journal.measurement(measured.phase(), measured.offset(), measured.measurement());
    } else if (m instanceof Milestone.DetectionIntervals intervals) {
      journal.text("detection_intervals", intervals.text());
    } else if (m instanceof Milestone.BudgetChecked budget) {
      journal.text("budget_preflight", budget.budget().text());
    } else if (m instanceof Milestone.FaultInjecting f) {
      journal.faultStarting(f.index(), f.at(), f.state());
    } else if (m instanceof Milestone.TargetsResolved t) {
      journal.queriesAsRun(t);
    } else if (m instanceof Milestone.FaultInjected f) {
      journal.faultState(f.index(), f.state());
      journal.faultSelected(f.index(), f.selected());
      if (f.applied()) {
        journal.faultInjected(f.index(), f.at());
      }
    } else if (m instanceof Milestone.Aborted a) {
      journal.time("aborted_at", a.at());
      journal.text("abort_reason", a.reason());
    } else if (m instanceof Milestone.FaultReverted r) {
      journal.faultRevert(
          r.index(),
          r.at(),
          r.reverted(),
          r.attempts(),
          r.detail(),
          r.manualCommand().orElse(null));
    } else if (m instanceof Milestone.WatchdogStarted w) {
      journal.watchdog(w.process(), w.files(), w.grace(), w.at());
    } else if (m instanceof Milestone.RolledBack r) {
      journal.time("rollback_done_at", r.at());
    } else if (m instanceof Milestone.Recovered r) {
      journal.time("recovered_at", r.at());
      journal.number("recovery_seconds", r.after().toMillis() / 1000.0);
    } else if (m instanceof Milestone.AlertsJudged judged) {
      journal.detection(judged.result());
    } else if (m instanceof Milestone.DrillFinished f) {
      journal.verdict(f.verdict(), f.reason(), f.rollbackOk(), f.at());
    }
  }

  private void write() {
    if (file.isEmpty() || broken) {
      return;
    }
    try {
      file.get().write(journal);
    } catch (UncheckedIOException e) {
      broken = true;
      unwritable.accept(e.getMessage());
    }
  }
}
