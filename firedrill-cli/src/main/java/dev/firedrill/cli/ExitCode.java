package dev.firedrill.cli;

import dev.firedrill.alerting.ObservabilityResult;
import dev.firedrill.alerting.lint.RulesLint;
import dev.firedrill.engine.Cleanup;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.Verdict;
import dev.firedrill.guard.Reading;
import dev.firedrill.history.RegressionCheck;
import dev.firedrill.lab.stack.LabStop;
import java.util.Optional;

/** Every exit code firedrill returns, decided here and nowhere else. */
final class ExitCode {

  static final int HELD = 0;
  static final int DEVIATED = 1;
  static final int INVALID = 2;
  static final int ABORTED = 3;
  static final int INCONCLUSIVE = 4;
  static final int NOT_RUN = 5;
  static final int INJECT_FAILED = 6;
  static final int ROLLBACK_FAILED = 7;

  private ExitCode() {}

  /**
   * A failed rollback outranks every verdict: it is what a pipeline most needs to see. A failed
   * alert expectation turns a held (or inconclusive) system verdict into 1; a worse system verdict
   * keeps its own code. An expectation the alert stack left unmeasured turns a held system verdict
   * into 4: the drill did not prove its alerts, and a pipeline must not read that as a pass.
   */
  static int of(DrillResult result) {
    if (!result.rollbackOk()) {
      return ROLLBACK_FAILED;
    }
    int system = of(result.verdict());
    Optional<ObservabilityResult.Verdict> alerts =
        result.observability().map(ObservabilityResult::verdict);
    if (alerts.equals(Optional.of(ObservabilityResult.Verdict.DEVIATED))
        && (system == HELD || system == INCONCLUSIVE)) {
      return DEVIATED;
    }
    if (alerts.equals(Optional.of(ObservabilityResult.Verdict.INCONCLUSIVE)) && system == HELD) {
      return INCONCLUSIVE;
    }
    return system;
  }

  /**
   * {@code history --check}: a regression fails like a broken hypothesis; an empty history proves
   * nothing (a wrong store or filter is the likelier cause than a first drill, which records rows).
   */
  static int of(RegressionCheck.Outcome check) {
    if (!check.regressions().isEmpty()) {
      return DEVIATED;
    }
    return check.empty() ? INCONCLUSIVE : HELD;
  }

  /**
   * {@code cleanup}: a fault left in place is a failed rollback, as it is at the end of a drill.
   */
  static int of(Cleanup.Result cleanup) {
    return cleanup.needsHuman() ? ROLLBACK_FAILED : HELD;
  }

  /**
   * {@code lab down}: a lab process that outlived TERM and KILL is a failed rollback. {@code lab
   * down} undoes {@code lab up}, and what it could not undo is left running on the lab's ports
   * until a human ends it (the line above names the command), which is what 7 tells a pipeline.
   */
  static int of(LabStop.Outcome stop) {
    return stop instanceof LabStop.Outcome.StillRunning ? ROLLBACK_FAILED : HELD;
  }

  /**
   * {@code measure}: outside the steady state fails like a broken hypothesis; no data proves
   * nothing.
   */
  static int of(Reading.Status measured) {
    return switch (measured) {
      case OK -> HELD;
      case BREACH -> DEVIATED;
      case NO_DATA, ERROR -> INCONCLUSIVE;
    };
  }

  /** {@code rules lint}: a finding fails the check. */
  static int of(RulesLint.Report lint) {
    return lint.findings().isEmpty() ? HELD : DEVIATED;
  }

  static int of(Verdict verdict) {
    return switch (verdict) {
      case HELD -> HELD;
      case DEVIATED -> DEVIATED;
      case ABORTED -> ABORTED;
      case INCONCLUSIVE -> INCONCLUSIVE;
      case NOT_RUN -> NOT_RUN;
      case REFUSED -> INVALID;
      case FAILED -> INJECT_FAILED;
    };
  }
}
