package dev.firedrill.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code history --check}'s logic on hand-built histories, oldest run first. */
class RegressionCheckTest {

  private static final Tolerance DEFAULT = Tolerance.parse(Tolerance.DEFAULT_TEXT);

  private static List<String> lines(RegressionCheck.Outcome outcome) {
    return outcome.regressions().stream().map(Regression::line).toList();
  }

  @Test
  void anAlertThatFiredBeforeAndNotNowStoppedFiring() {
    RegressionCheck.Outcome outcome =
        RegressionCheck.check(
            List.of(Rows.fired(0, 5), Rows.missed(1), Rows.fired(2, 5), Rows.missed(3)), DEFAULT);

    assertThat(lines(outcome))
        .containsExactly(
            "CheckoutErrorBudgetBurn{service=\"checkout\"} in payments-outage: "
                + "stopped firing: did not fire in the run of 2026-01-04 10:00; fired in 2 of 3 earlier runs");
  }

  @Test
  void aSimulationIsNeitherTheLatestRunNorABaseline() {
    DetectionRecord missed = Rows.missed(2);
    DetectionRecord simulatedMiss =
        new DetectionRecord(
            missed.runId() + DetectionRecord.SIMULATED,
            missed.runAt(),
            missed.experiment(),
            missed.alert(),
            missed.alertKey(),
            missed.expect(),
            missed.fired(),
            missed.timeToDetect(),
            missed.timeToNotify(),
            missed.receivers(),
            missed.expectedReceiver(),
            missed.routing(),
            missed.held(),
            missed.verdict(),
            missed.journal());

    RegressionCheck.Outcome outcome =
        RegressionCheck.check(List.of(Rows.fired(0, 5), Rows.fired(1, 5), simulatedMiss), DEFAULT);

    assertThat(outcome.regressions()).isEmpty();
    assertThat(outcome.runs()).isEqualTo(2);
    // The same row as a run is a regression: the simulation mark alone made the difference.
    assertThat(
            RegressionCheck.check(List.of(Rows.fired(0, 5), Rows.fired(1, 5), missed), DEFAULT)
                .regressions())
        .hasSize(1);
  }

  @Test
  void anAlertThatNeverFiredHasNotStoppedFiring() {
    assertThat(
            RegressionCheck.check(List.of(Rows.missed(0), Rows.missed(1)), DEFAULT).regressions())
        .isEmpty();
  }

  @Test
  void aReceiverOtherThanTheExpectedOneIsMisrouted() {
    RegressionCheck.Outcome outcome =
        RegressionCheck.check(
            List.of(Rows.fired(0, 5), Rows.routedTo(1, "team-payments", "NO")), DEFAULT);

    assertThat(lines(outcome))
        .containsExactly(
            "CheckoutErrorBudgetBurn{service=\"checkout\"} in payments-outage: "
                + "misrouted: routed to team-payments, expected team-checkout (run of 2026-01-02 10:00)");
  }

  @Test
  void aReceiverOtherThanBeforeIsARoutingChangeWhenNoneIsExpected() {
    RegressionCheck.Outcome outcome =
        RegressionCheck.check(
            List.of(
                Rows.routedTo(0, "team-checkout", "-"),
                Rows.routedTo(1, "team-checkout", "-"),
                Rows.routedTo(2, "default", "-")),
            DEFAULT);

    assertThat(lines(outcome))
        .containsExactly(
            "CheckoutErrorBudgetBurn{service=\"checkout\"} in payments-outage: "
                + "routing changed: routed to default in the run of 2026-01-03 10:00, to team-checkout in the run of "
                + "2026-01-02 10:00");
  }

  @Test
  void aTimeToDetectBeyondTheToleranceOverTheMedianRegressed() {
    // Median of 10, 12 and 60 is 12, their deviations 2, 0 and 48: the one slow run neither moves
    // the baseline nor widens the spread enough to hide the regression (3 x 1.4826 x 2s = 8.9s).
    RegressionCheck.Outcome outcome =
        RegressionCheck.check(
            List.of(Rows.fired(0, 10), Rows.fired(1, 60), Rows.fired(2, 12), Rows.fired(3, 21)),
            DEFAULT);

    assertThat(lines(outcome))
        .containsExactly(
            "CheckoutErrorBudgetBurn{service=\"checkout\"} in payments-outage: "
                + "time to detect grew: 21.0s in the run of 2026-01-04 10:00, over the 20.9s allowed: median 12.0s of 3 "
                + "earlier runs plus three times their spread (10.0s to 60.0s, a deviation of 3.0s), wider than 50%"
                + " or 2s, whichever is larger");
  }

  @Test
  void identicalDrillsThatVaryAsMuchAsTheyDidBeforeAreNoRegression() {
    // Six runs of one file measured 5.1 to 17.2 s: the spread, not 50%, says what noise is.
    List<DetectionRecord> runs =
        List.of(
            Rows.fired(0, 5.1),
            Rows.fired(1, 9.0),
            Rows.fired(2, 11.0),
            Rows.fired(3, 14.0),
            Rows.fired(4, 6.5),
            Rows.fired(5, 17.2));

    assertThat(RegressionCheck.check(runs, DEFAULT).regressions()).isEmpty();
    assertThat(
            RegressionCheck.spreadAllowance(
                List.of(
                    Duration.ofMillis(5100),
                    Duration.ofMillis(6500),
                    Duration.ofMillis(9000),
                    Duration.ofMillis(11000),
                    Duration.ofMillis(14000)),
                Duration.ofMillis(9000)))
        .isEqualTo(Duration.ofMillis(9000).plusNanos((long) (3 * 1.4826 * 2.5 * 1e9)));
  }

  @Test
  void aTimeToDetectWithinTheToleranceIsNoRegression() {
    RegressionCheck.Outcome outcome =
        RegressionCheck.check(
            List.of(Rows.fired(0, 10), Rows.fired(1, 60), Rows.fired(2, 12), Rows.fired(3, 18)),
            DEFAULT);

    assertThat(outcome.regressions()).isEmpty();
    assertThat(outcome).isEqualTo(new RegressionCheck.Outcome(List.of(), 1, 1, 4));
  }

  @Test
  void forAFastAlertTheTwoSecondsWinOverHalfItsTime() {
    List<DetectionRecord> within = List.of(Rows.fired(0, 0.7), Rows.fired(1, 2.7));
    List<DetectionRecord> beyond = List.of(Rows.fired(0, 0.7), Rows.fired(1, 2.8));

    assertThat(RegressionCheck.check(within, DEFAULT).regressions()).isEmpty();
    assertThat(RegressionCheck.check(within, Tolerance.parse("50%")).regressions()).hasSize(1);
    assertThat(lines(RegressionCheck.check(beyond, DEFAULT)))
        .containsExactly(
            "CheckoutErrorBudgetBurn"
                + "{service=\"checkout\"} in payments-outage: time to detect grew: 2.8s in the run of 2026-01-02 10:00, "
                + "over the 2.7s allowed: median 0.7s of 1 earlier run plus 50% or 2s, whichever is larger");
  }

  @Test
  void anAbsoluteToleranceAlone() {
    List<DetectionRecord> runs = List.of(Rows.fired(0, 30), Rows.fired(1, 32), Rows.fired(2, 33.5));

    assertThat(RegressionCheck.check(runs, Tolerance.parse("2s")).regressions())
        .extracting(Regression::figures)
        .containsExactly(
            "33.5s in the run of 2026-01-03 10:00, over the 33.0s allowed: median 31.0s of 2 earlier "
                + "runs plus 2s");
    assertThat(RegressionCheck.check(runs, Tolerance.parse("3s")).regressions()).isEmpty();
  }

  @Test
  void onlyTheLatestRunIsJudged() {
    // The second run was slow and misrouted; the latest is back to normal.
    RegressionCheck.Outcome outcome =
        RegressionCheck.check(
            List.of(
                Rows.fired(0, 5),
                Rows.row(1, true, Optional.of(Rows.seconds(50)), List.of("default"), "NO", false),
                Rows.fired(2, 5)),
            DEFAULT);

    assertThat(outcome.regressions()).isEmpty();
  }

  @Test
  void anotherExperimentsRunsAreAnotherBaseline() {
    DetectionRecord slowElsewhere =
        new DetectionRecord(
            "cpu@1",
            Rows.fired(1, 1).runAt(),
            "cpu-burn",
            Rows.ALERT,
            Rows.KEY,
            "firing",
            true,
            Optional.of(Rows.seconds(90)),
            Optional.empty(),
            List.of("team-checkout"),
            Optional.of("team-checkout"),
            "yes",
            true,
            "held",
            "/j/cpu.json");

    RegressionCheck.Outcome outcome =
        RegressionCheck.check(List.of(Rows.fired(0, 5), slowElsewhere), DEFAULT);

    assertThat(outcome).isEqualTo(new RegressionCheck.Outcome(List.of(), 2, 0, 2));
  }

  @Test
  void everyRegressionOfOneRunIsListed() {
    RegressionCheck.Outcome outcome =
        RegressionCheck.check(
            List.of(
                Rows.fired(0, 5),
                Rows.row(1, true, Optional.of(Rows.seconds(30)), List.of("default"), "NO", false)),
            DEFAULT);

    assertThat(outcome.regressions())
        .extracting(Regression::kind)
        .containsExactly(Regression.Kind.MISROUTED, Regression.Kind.SLOWER);
  }

  @Test
  void noHistoryIsEmpty() {
    RegressionCheck.Outcome outcome = RegressionCheck.check(List.of(), DEFAULT);

    assertThat(outcome.empty()).isTrue();
    assertThat(outcome).isEqualTo(new RegressionCheck.Outcome(List.of(), 0, 0, 0));
  }
}
