package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.alerting.AlertState;
import dev.firedrill.engine.Milestone;
import dev.firedrill.engine.Phase;
import dev.firedrill.engine.Verdict;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import dev.firedrill.time.VirtualClock;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LiveStatusTest {

  private final VirtualClock clock = VirtualClock.at("2026-11-29T21:00:00Z");
  private final StringWriter screen = new StringWriter();

  @Test
  void onATerminalEveryLineClearsTheStatusPrintsAndRedrawsItWithTheMilestonesState() {
    LiveStatus status =
        new LiveStatus(new PrintWriter(screen), true, Duration.ofSeconds(20), clock, 200);
    String burn = "CheckoutErrorBudgetBurn{service=\"checkout\"}";

    status.writer().println("receiver: Alertmanager webhooks on http://127.0.0.1:1234");
    status.on(new Milestone.PhaseStarted(Phase.DURING, at(2.0), seconds(2.0)));
    status.on(
        measured(
            Phase.DURING,
            2.5,
            Reading.of("error_ratio", 0.06, false, "<= 0.01"),
            Reading.of("p99", 0.2, true, "<= 0.25"),
            Reading.of("burn_rate", 60, false, "<= 14.4")));
    clock.advance(Duration.ofSeconds(1));
    status.redraw();
    status.on(alert(burn, AlertState.PENDING, Optional.empty(), 3.6));
    status.on(alert("CheckoutOrdersPending", AlertState.FIRING, Optional.empty(), 3.7));
    status.on(alert(burn, AlertState.FIRING, Optional.of(AlertState.PENDING), 4.0));
    status.on(
        alert("CheckoutOrdersPending", AlertState.RESOLVED, Optional.of(AlertState.FIRING), 5.0));
    status.close();

    String s0 = "plan 0.0s/20s | alerts: 0 pending, 0 firing";
    String s1 = "during 2.0s/20s | alerts: 0 pending, 0 firing";
    String readings = " | error_ratio=0.06! p99=0.2 burn_rate=60! | alerts: ";
    String s2 = "during 2.5s/20s" + readings + "0 pending, 0 firing";
    String s3 = "during 3.5s/20s" + readings + "0 pending, 0 firing";
    String s4 = "during 3.6s/20s" + readings + "1 pending, 0 firing";
    String s5 = "during 3.7s/20s" + readings + "1 pending, 1 firing";
    String s6 = "during 4.0s/20s" + readings + "0 pending, 2 firing";
    String s7 = "during 5.0s/20s" + readings + "0 pending, 1 firing";
    assertThat(screen.toString())
        .isEqualTo(
            "receiver: Alertmanager webhooks on http://127.0.0.1:1234\n"
                + s0
                + clear(s0)
                + s1
                + clear(s1)
                + "+2.5s during breach: error_ratio 0.06 outside <= 0.01, p99 0.2 <= 0.25, burn_rate 60 outside <= 14.4\n"
                + s2
                + clear(s2)
                + s3
                + clear(s3)
                + "+3.6s detect "
                + burn
                + " pending, active since +0.7s after injection\n"
                + s4
                + clear(s4)
                + "+3.7s detect CheckoutOrdersPending firing, active since +0.7s after injection\n"
                + s5
                + clear(s5)
                + "+4.0s detect "
                + burn
                + " firing\n"
                + s6
                + clear(s6)
                + "+5.0s detect CheckoutOrdersPending resolved\n"
                + s7
                + clear(s7));
  }

  @Test
  void readingsWithoutAValueSayWhatTheyLackAndTheVerdictEndsThePhases() {
    LiveStatus status =
        new LiveStatus(new PrintWriter(screen), true, Duration.ofSeconds(20), clock, 200);

    status.on(
        measured(
            Phase.AFTER,
            30.0,
            Reading.noData("p95", "<= 0.5", "empty result"),
            Reading.error("up", ">= 1", "Prometheus at http://127.0.0.1:9 is unreachable")));
    status.on(
        new Milestone.DrillFinished(
            Verdict.DEVIATED, "not back", Optional.empty(), List.of(), at(31.0), seconds(31.0)));

    assertThat(status.status())
        .isEqualTo("verdict 31.0s/20s | p95=no-data up=error | alerts: 0 pending, 0 firing");
  }

  @Test
  void elsewhereItPrintsThePlainLinesAndNothingElse() {
    LiveStatus status =
        new LiveStatus(new PrintWriter(screen), false, Duration.ofSeconds(20), clock, 200);
    status.startTicking(Duration.ofMillis(1));

    status.on(new Milestone.PhaseStarted(Phase.PREFLIGHT, at(0.0), Duration.ZERO));
    status.on(measured(Phase.PREFLIGHT, 0.1, Reading.of("error_ratio", 0, true, "<= 0.01")));
    status.writer().print("journal: ");
    status.writer().println("/tmp/x.json");
    status.close();

    assertThat(screen.toString())
        .isEqualTo("+0.1s before ok: error_ratio 0 <= 0.01\njournal: /tmp/x.json\n");
  }

  @Test
  void aStatusWiderThanTheTerminalIsCutSoItNeverWraps() {
    LiveStatus status =
        new LiveStatus(new PrintWriter(screen), true, Duration.ofSeconds(20), clock, 24);

    assertThat(status.status()).isEqualTo("plan 0.0s/20s | alerts~").hasSize(23);
  }

  @Test
  void theClockNeverJumpsBackWhenAMilestoneStampedEarlierArrivesLate() {
    LiveStatus status =
        new LiveStatus(new PrintWriter(screen), true, Duration.ofSeconds(20), clock, 200);
    status.on(new Milestone.PhaseStarted(Phase.DURING, at(2.0), seconds(2.0)));
    clock.advance(Duration.ofMillis(1500));
    assertThat(status.status()).startsWith("during 3.5s/20s");

    // measured at +3.0s, delivered at +3.5s (a slow query): the status stays at 3.5s, then moves on
    status.on(measured(Phase.DURING, 3.0, Reading.of("error_ratio", 0.001, true, "<= 0.01")));
    assertThat(status.status()).startsWith("during 3.5s/20s");
    clock.advance(Duration.ofMillis(1000));
    assertThat(status.status()).startsWith("during 4.0s/20s");
  }

  private static final Instant START = Instant.parse("2026-11-29T21:00:00Z");
  private static final Instant INJECTED = START.plusSeconds(1);

  private static Instant at(double offset) {
    return START.plus(seconds(offset));
  }

  private static Duration seconds(double offset) {
    return Duration.ofMillis(Math.round(offset * 1000));
  }

  private static Milestone.Measured measured(Phase phase, double offset, Reading... readings) {
    return new Milestone.Measured(
        phase,
        at(offset),
        new Measurement(at(offset), List.of(readings), Optional.empty()),
        at(offset),
        seconds(offset));
  }

  /** Every alert of these tests became active 0.7 s after the injection. */
  private static Milestone.AlertStateChanged alert(
      String name, AlertState state, Optional<AlertState> previous, double offset) {
    Optional<Instant> activeAt =
        state == AlertState.RESOLVED ? Optional.empty() : Optional.of(INJECTED.plusMillis(700));
    return new Milestone.AlertStateChanged(
        name, state, previous, activeAt, INJECTED, at(offset), seconds(offset));
  }

  /**
   * What the status line leaves when it is erased: blanks over it, the cursor back at the start.
   */
  private static String clear(String status) {
    return "\r" + " ".repeat(status.length()) + "\r";
  }
}
