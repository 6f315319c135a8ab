package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.alerting.AlertState;
import dev.firedrill.fault.ProcessId;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.watchdog.WatchdogFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The console's text of the milestones whose wording depends on their content, one by one: the
 * lines a human reads during a drill and the journal keeps as its events.
 */
class MilestoneTextTest {

  private static final Instant INJECTED = ScriptedDrill.START;
  private static final Instant AT = INJECTED.plusSeconds(30);
  private static final Duration OFFSET = Duration.ofSeconds(30);

  @Test
  void aSlowMeasurementSaysHowLongItTookAgainstTheInterval() {
    assertThat(
            MilestoneText.console(
                new Milestone.SlowMeasurement(
                    Phase.AFTER, Duration.ofMillis(7500), Duration.ofSeconds(5), AT, OFFSET)))
        .containsExactly(
            "+30.0s after slow: the measurement took 7.5s, longer than the 5s interval"
                + " (Prometheus answered slowly); the next one keeps the schedule");
  }

  @Test
  void theTargetsAreTheWholeGroupBeforeInjectionThenTheNamesOrNothing() {
    assertThat(MilestoneText.console(targets(false, List.of())))
        .containsExactly("+30.0s before {{ targets }}: the whole group before injection");
    assertThat(MilestoneText.console(targets(true, List.of())))
        .containsExactly("+30.0s inject {{ targets }}: nothing selected, matches no name");
    assertThat(MilestoneText.console(targets(true, List.of("payments-0", "payments-1"))))
        .containsExactly("+30.0s inject {{ targets }}: payments-0, payments-1");
  }

  private static Milestone.TargetsResolved targets(boolean injected, List<String> names) {
    return new Milestone.TargetsResolved(injected, names, List.of(), AT, OFFSET);
  }

  @Test
  void anAlertActiveSinceBeforeTheInjectionCountsBackFromIt() {
    assertThat(
            MilestoneText.console(
                new Milestone.AlertStateChanged(
                    "CheckoutBurn",
                    AlertState.PENDING,
                    Optional.of(AlertState.RESOLVED),
                    Optional.of(INJECTED.minusMillis(500)),
                    INJECTED,
                    AT,
                    OFFSET)))
        .as("active again after it had resolved: an activation, with its time")
        .containsExactly("+30.0s detect CheckoutBurn pending, active since -0.5s after injection");
    assertThat(
            MilestoneText.console(
                new Milestone.AlertStateChanged(
                    "CheckoutBurn", AlertState.FIRING, null, null, INJECTED, AT, OFFSET)))
        .containsExactly("+30.0s detect CheckoutBurn firing");
  }

  @Test
  void anAlertChangingStateIsAnActivationOnlyWhenFirstSeenOrBackAfterResolving() {
    assertThat(change(AlertState.PENDING, Optional.empty()).activation()).isTrue();
    assertThat(change(AlertState.FIRING, Optional.of(AlertState.RESOLVED)).activation()).isTrue();
    assertThat(change(AlertState.FIRING, Optional.of(AlertState.PENDING)).activation()).isFalse();
    assertThat(change(AlertState.RESOLVED, Optional.empty()).activation()).isFalse();
  }

  private static Milestone.AlertStateChanged change(
      AlertState state, Optional<AlertState> previous) {
    return new Milestone.AlertStateChanged(
        "CheckoutBurn", state, previous, Optional.of(INJECTED), INJECTED, AT, OFFSET);
  }

  @Test
  void aRoutedAlertNamesItsStartAndReceivers() {
    assertThat(
            MilestoneText.console(
                new Milestone.AlertRouted(
                    "CheckoutBurn",
                    INJECTED.plusSeconds(22),
                    List.of("team-checkout", "pager"),
                    INJECTED,
                    AT,
                    OFFSET)))
        .containsExactly(
            "+30.0s detect CheckoutBurn in Alertmanager, startsAt +22.0s after injection,"
                + " receivers team-checkout, pager");
  }

  @Test
  void aFailedRevertAndAFailedRollbackSayWhatToRunByHand() {
    assertThat(
            MilestoneText.console(
                new Milestone.FaultReverted(
                    0,
                    ScriptedDrill.CPU_BURN,
                    3,
                    "burn refused to go",
                    Optional.of("kill 42"),
                    AT,
                    OFFSET)))
        .containsExactly(
            "+30.0s rollback cpu-burn: FAILED after 3 attempts: burn refused to go; run by hand:"
                + " kill 42");
    assertThat(
            MilestoneText.console(
                new Milestone.DrillFinished(
                    Verdict.HELD, "fine", null, List.of("kill 42", "kill 43"), AT, OFFSET)))
        .containsExactly(
            "+30.0s verdict held: fine",
            "+30.0s verdict ROLLBACK FAILED: run by hand: kill 42 && kill 43");
    assertThat(
            MilestoneText.console(
                new Milestone.DrillFinished(Verdict.HELD, "fine", null, List.of(), AT, OFFSET)))
        .containsExactly("+30.0s verdict held: fine");
  }

  @Test
  void theWatchdogTheJournalAndARefusalEachHaveOneLine() {
    assertThat(
            MilestoneText.console(
                new Milestone.WatchdogStarted(
                    new ProcessId(4242, 7),
                    new WatchdogFiles(Path.of("h"), Path.of("l"), Path.of("r")),
                    Duration.ofSeconds(30),
                    AT,
                    OFFSET)))
        .containsExactly(
            "+30.0s inject watchdog PID 4242 holds the ttl of the faults it enforces; it undoes"
                + " them if firedrill stops renewing its lease for 30s");
    assertThat(
            MilestoneText.console(
                new Milestone.JournalUnwritable("cannot write drill.json: disk full", AT, OFFSET)))
        .containsExactly("+30.0s plan journal: cannot write drill.json: disk full");
    assertThat(MilestoneText.console(new Milestone.Refused("no budget", AT, OFFSET)))
        .containsExactly("+30.0s verdict refused: no budget");
  }

  @Test
  void optionalPartsLeftOutAreEmpty() {
    assertThat(new Milestone.Planned(List.of(), null, List.of(), AT, OFFSET).budget()).isEmpty();
    assertThat(
            new Milestone.FaultInjected(
                    0,
                    ScriptedDrill.CPU_BURN,
                    List.of(),
                    java.util.Map.of(),
                    null,
                    List.of(),
                    AT,
                    OFFSET)
                .applied())
        .isTrue();
    assertThat(
            new Milestone.FaultReverted(0, ScriptedDrill.CPU_BURN, 1, "gone", null, AT, OFFSET)
                .reverted())
        .isTrue();
    assertThat(
            new Milestone.DrillFinished(Verdict.HELD, "fine", null, List.of(), AT, OFFSET)
                .abortReason())
        .isEmpty();
  }
}
