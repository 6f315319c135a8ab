package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.alerting.ObservabilityResult;
import dev.firedrill.alerting.lint.Finding;
import dev.firedrill.alerting.lint.RulesLint;
import dev.firedrill.engine.Cleanup;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.Verdict;
import dev.firedrill.fault.ProcessId;
import dev.firedrill.guard.Reading;
import dev.firedrill.lab.stack.LabState;
import dev.firedrill.lab.stack.LabStop;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The exit codes DESIGN.md promises, decided in one place. */
class ExitCodeTest {

  private static final Map<Verdict, Integer> DESIGN =
      Map.of(
          Verdict.HELD, 0,
          Verdict.DEVIATED, 1,
          Verdict.REFUSED, 2,
          Verdict.ABORTED, 3,
          Verdict.INCONCLUSIVE, 4,
          Verdict.NOT_RUN, 5,
          Verdict.FAILED, 6);

  @Test
  void eachVerdictMapsToItsDocumentedCode() {
    assertThat(DESIGN).containsOnlyKeys(Verdict.values());
    for (Verdict verdict : Verdict.values()) {
      assertThat(ExitCode.of(verdict)).as(verdict.text()).isEqualTo(DESIGN.get(verdict));
      DrillResult clean =
          new DrillResult(verdict, "reason", true, List.of(), null, Optional.empty());
      assertThat(ExitCode.of(clean)).as(verdict.text()).isEqualTo(DESIGN.get(verdict));
    }
  }

  @Test
  void aFailedRollbackIsSevenWhateverTheVerdict() {
    for (Verdict verdict : Verdict.values()) {
      DrillResult stuck =
          new DrillResult(
              verdict, "reason", false, List.of("kill -9 4242"), null, Optional.empty());
      assertThat(ExitCode.of(stuck)).as(verdict.text()).isEqualTo(7);
    }
    assertThat(
            List.of(
                ExitCode.HELD,
                ExitCode.DEVIATED,
                ExitCode.INVALID,
                ExitCode.ABORTED,
                ExitCode.INCONCLUSIVE,
                ExitCode.NOT_RUN,
                ExitCode.INJECT_FAILED,
                ExitCode.ROLLBACK_FAILED))
        .containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
  }

  @Test
  void aFailedAlertExpectationTurnsHeldAndInconclusiveIntoOneAndLeavesWorseCodes() {
    Optional<ObservabilityResult> missed =
        Optional.of(
            new ObservabilityResult(
                ObservabilityResult.Verdict.DEVIATED, "PaymentsDown: missed", List.of()));
    Optional<ObservabilityResult> fine =
        Optional.of(
            new ObservabilityResult(
                ObservabilityResult.Verdict.HELD,
                "1 expected alert behaved as expected",
                List.of()));
    assertThat(ExitCode.of(new DrillResult(Verdict.HELD, "r", true, List.of(), null, missed)))
        .isEqualTo(1);
    assertThat(
            ExitCode.of(new DrillResult(Verdict.INCONCLUSIVE, "r", true, List.of(), null, missed)))
        .isEqualTo(1);
    assertThat(ExitCode.of(new DrillResult(Verdict.ABORTED, "r", true, List.of(), null, missed)))
        .isEqualTo(3);
    assertThat(ExitCode.of(new DrillResult(Verdict.HELD, "r", true, List.of(), null, fine)))
        .isZero();
    assertThat(ExitCode.of(new DrillResult(Verdict.HELD, "r", false, List.of("x"), null, missed)))
        .isEqualTo(7);
  }

  @Test
  void anAlertStackThatCouldNotBeReadTurnsHeldIntoFourAndLeavesOtherCodes() {
    Optional<ObservabilityResult> unread =
        Optional.of(
            new ObservabilityResult(
                ObservabilityResult.Verdict.INCONCLUSIVE,
                "PaymentsDown: unknown: 3 of 3 reads of the alerts failed",
                List.of()));
    assertThat(ExitCode.of(new DrillResult(Verdict.HELD, "r", true, List.of(), null, unread)))
        .isEqualTo(4);
    assertThat(ExitCode.of(new DrillResult(Verdict.DEVIATED, "r", true, List.of(), null, unread)))
        .isEqualTo(1);
    assertThat(ExitCode.of(new DrillResult(Verdict.ABORTED, "r", true, List.of(), null, unread)))
        .isEqualTo(3);
    assertThat(ExitCode.of(new DrillResult(Verdict.HELD, "r", false, List.of("x"), null, unread)))
        .isEqualTo(7);
  }

  @Test
  void whatCleanupAndLabDownCouldNotUndoIsSevenLikeAFailedRollback() {
    Cleanup.Outcome reverted =
        new Cleanup.Outcome(0, "process-kill", true, "reverted: SIGCONT sent");
    Cleanup.Outcome stuck =
        new Cleanup.Outcome(1, "http-toxic", false, "proxy unreachable; run by hand: curl ...");
    assertThat(ExitCode.of(new Cleanup.Result(List.of()))).isZero();
    assertThat(ExitCode.of(new Cleanup.Result(List.of(reverted)))).isZero();
    assertThat(ExitCode.of(new Cleanup.Result(List.of(reverted, stuck)))).isEqualTo(7);

    LabState.Process payments =
        new LabState.Process(
            "payments", new ProcessId(4242, 99), "http://127.0.0.1:8081", Path.of("payments.log"));
    assertThat(ExitCode.of(new LabStop.Outcome.NotUp(Path.of(".firedrill-lab/lab.json")))).isZero();
    assertThat(ExitCode.of(new LabStop.Outcome.Down(Path.of(".firedrill-lab")))).isZero();
    assertThat(ExitCode.of(new LabStop.Outcome.StillRunning(List.of(payments)))).isEqualTo(7);
  }

  @Test
  void measureAndLintFailLikeABrokenHypothesis() {
    assertThat(ExitCode.of(Reading.Status.OK)).isZero();
    assertThat(ExitCode.of(Reading.Status.BREACH)).isEqualTo(1);
    assertThat(ExitCode.of(Reading.Status.NO_DATA)).isEqualTo(4);
    assertThat(ExitCode.of(Reading.Status.ERROR)).isEqualTo(4);

    assertThat(ExitCode.of(new RulesLint.Report(List.of(), List.of(), 1, 3))).isZero();
    assertThat(
            ExitCode.of(
                new RulesLint.Report(
                    List.of(new Finding("a.yml", "g", "runbook", "PaymentsDown", "no runbook_url")),
                    List.of(),
                    1,
                    3)))
        .isEqualTo(1);
  }
}
