package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.alerting.AlertState;
import dev.firedrill.alerting.DetectionRow;
import dev.firedrill.alerting.ObservabilityResult;
import dev.firedrill.alerting.RuleBook;
import dev.firedrill.alerting.Truncation;
import dev.firedrill.experiment.Abort;
import dev.firedrill.experiment.AlertExpectation;
import dev.firedrill.experiment.BurnRateGuard;
import dev.firedrill.experiment.Hypothesis;
import dev.firedrill.experiment.Missing;
import dev.firedrill.testing.ScriptedAlerts;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.testing.ScriptedPrometheus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Whole drills on a virtual clock with a scripted alert stack: each detection outcome, row by row.
 */
class DetectionDrillTest {

  private static final String RUNBOOK = "https://runbooks.example.com/checkout/burn";
  private static final Map<String, String> BURN_LABELS =
      Map.of("alertname", "CheckoutBurn", "service", "checkout", "team", "checkout");

  private final ScriptedDrill drill = new ScriptedDrill();
  private final ScriptedAlerts stack = drill.alerts().rules(rules("CheckoutBurn", "PaymentsDown"));

  /**
   * The lab's two alerting rules, of which those named, and the recording rule CheckoutBurn reads.
   */
  private static RuleBook rules(String... names) {
    List<RuleBook.AlertRule> rules =
        List.of(
            new RuleBook.AlertRule(
                "CheckoutBurn",
                "checkout:error_ratio:rate1m > 0.2",
                Duration.ofSeconds(10),
                Duration.ofSeconds(1),
                Map.of(),
                Map.of()),
            new RuleBook.AlertRule(
                "PaymentsDown",
                "up{job=\"payments\"} == 0",
                Duration.ofSeconds(5),
                Duration.ofSeconds(1),
                Map.of(),
                Map.of()));
    return new RuleBook(
        rules.stream().filter(r -> List.of(names).contains(r.name())).toList(),
        Map.of("checkout:error_ratio:rate1m", "sum(rate(errors[1m])) / sum(rate(requests[1m]))"),
        Duration.ofSeconds(1),
        Duration.ofSeconds(1));
  }

  /** CheckoutBurn for checkout's team with its runbook. */
  private ScriptedAlerts.Alert checkoutBurn() {
    return stack.alert(BURN_LABELS, Map.of("runbook_url", RUNBOOK));
  }

  private DrillResult run(AlertExpectation... expectations) {
    return drill.run(
        drill
            .experiment()
            .hypothesis(new Hypothesis("", Duration.ofSeconds(30), List.of(expectations)))
            .build());
  }

  private static AlertExpectation burn(Duration within, String receiver) {
    return new AlertExpectation(
        "CheckoutBurn",
        Map.of("service", "checkout"),
        AlertExpectation.Expect.FIRING,
        within,
        Optional.ofNullable(receiver),
        Optional.of(RUNBOOK),
        Optional.empty(),
        false);
  }

  private DetectionRow onlyRow(DrillResult result) {
    assertThat(result.observability()).isPresent();
    assertThat(result.observability().get().rows()).hasSize(1);
    return result.observability().get().rows().get(0);
  }

  @Test
  void anAlertThatFiresInTimeToTheRightReceiverHolds() {
    drill.fault("errors");
    checkoutBurn().pendingAt(12).firingAt(22).notifiedAt(23.5, "team-checkout");

    DrillResult result = run(burn(Duration.ofMinutes(1), "team-checkout"));

    DetectionRow row = onlyRow(result);
    assertThat(row.held()).isTrue();
    assertThat(row.timeToDetect()).contains(Duration.ofSeconds(22));
    assertThat(row.timeToNotify()).contains(Duration.ofMillis(1500));
    assertThat(row.floor().get().value()).isEqualTo(Duration.ofSeconds(22));
    assertThat(row.floor().get().reason())
        .isEqualTo(
            "the 1m window: at a 100% error ratio, 0.2 of it needs 12.0s of data, then for: 10s");
    assertThat(result.observability().get().verdict()).isEqualTo(ObservabilityResult.Verdict.HELD);
    assertThat(drill.lines())
        .contains(
            "+15.0s detect CheckoutBurn{service=\"checkout\"} pending, active since +12.0s after injection",
            "+25.0s detect CheckoutBurn{service=\"checkout\"}: fired 22.0s after injection (webhook startsAt); floor 22.0s (the 1m window: at a 100% error ratio, 0.2 of it needs 12.0s of data, then for: 10s)"
                .replace("+25.0s", "+60.0s"),
            "+25.0s detect CheckoutBurn{service=\"checkout\"} notified to team-checkout at +23.5s after injection (startsAt +22.0s after injection)");
    assertThat(
            result
                .journal()
                .json()
                .get("detection")
                .get("alerts")
                .get(0)
                .get("time_to_detect_s")
                .asDouble())
        .isEqualTo(22.0);
  }

  @Test
  void theJournalsRowHasEveryFieldOfTheRowInSeconds() {
    drill.fault("errors");
    checkoutBurn().pendingAt(12).firingAt(22).notifiedAt(23.5, "team-checkout");

    DrillResult result = run(burn(Duration.ofMinutes(1), "team-checkout"));

    JsonNode journal = result.journal().json();
    JsonNode row = journal.get("detection").get("alerts").get(0);
    assertThat(row.get("alert").asText()).isEqualTo("CheckoutBurn");
    assertThat(row.get("matchers").toString()).isEqualTo("{\"service\":\"checkout\"}");
    assertThat(row.get("expect").asText()).isEqualTo("firing");
    assertThat(row.get("within_s").asDouble()).isEqualTo(60.0);
    assertThat(row.get("fired").asBoolean()).isTrue();
    assertThat(row.get("floor_s").asDouble()).isEqualTo(22.0);
    assertThat(row.get("floor_reason").asText())
        .isEqualTo(
            "the 1m window: at a 100% error ratio, 0.2 of it needs 12.0s of data, then for: 10s");
    assertThat(row.get("time_to_notify_s").asDouble()).isEqualTo(1.5);
    assertThat(row.get("receiver_expected").asText()).isEqualTo("team-checkout");
    assertThat(row.get("held").asBoolean()).isTrue();
    assertThat(journal.get("detection").get("verdict").asText()).isEqualTo("held");
    assertThat(journal.get("detection_intervals").asText())
        .isEqualTo(stack.rules().intervalsText());
    assertThat(drill.milestones(Milestone.DetectionIntervals.class))
        .singleElement()
        .satisfies(m -> assertThat(m.text()).isEqualTo(stack.rules().intervalsText()));
  }

  @Test
  void afterTheRecoveryTheDrillPollsTheAlertsEveryIntervalUntilTheWindowEnds() {
    drill.fault("errors");

    run(burn(Duration.ofSeconds(90), "team-checkout"));

    // A poll after each measurement (preflight's is the detection's preflight, not a poll), the
    // recovery's at 60 s, then every 5 s from the detect phase's start until 90 s.
    assertThat(stack.reads()).endsWith(55.0, 60.0, 60.0, 60.0, 65.0, 70.0, 75.0, 80.0, 85.0, 90.0);
    List<Milestone.PhaseStarted> phases = drill.milestones(Milestone.PhaseStarted.class);
    assertThat(phases.get(phases.size() - 1).phase()).isEqualTo(Phase.DETECT);
    assertThat(phases.get(phases.size() - 1).at()).isEqualTo(drill.at(60));
    assertThat(drill.seconds()).isEqualTo(90.0);
  }

  @Test
  void theFloorIsOfTheErrorRatioTheBurnRateGuardMeasured() {
    drill.fault("errors");
    checkoutBurn().pendingAt(12).firingAt(30);
    String gauge = "checkout_error_ratio";
    drill.prometheus().answer(gauge, t -> ScriptedPrometheus.value(t > 0 ? 0.5 : 0.001));

    DrillResult result =
        drill.run(
            drill
                .experiment()
                .hypothesis(
                    new Hypothesis(
                        "",
                        Duration.ofSeconds(30),
                        List.of(burn(Duration.ofSeconds(40), "team-checkout"))))
                .abort(
                    new Abort(
                        List.of(),
                        Optional.of(
                            new BurnRateGuard(
                                0.999,
                                Duration.ofDays(30),
                                gauge,
                                1000,
                                Missing.FAIL,
                                Optional.empty())),
                        Abort.DEFAULT_PROBE_ERRORS,
                        Optional.empty()))
                .build());

    // Every reading of a gauge counts (it has no window to fill): 0.5, not an outage's 100%.
    assertThat(onlyRow(result).floor().get().reason())
        .isEqualTo(
            "the 1m window: at the 50% error ratio measured while the faults were on, 0.2 of it"
                + " takes 24.0s of data, then for: 10s");
  }

  @Test
  void eachChangeOfAnExpectedAlertsStateIsAMilestoneWithItsActiveAt() {
    drill.fault("errors");
    checkoutBurn().pendingAt(12).firingAt(22).notifiedAt(23.5, "team-checkout").resolvedAt(40);

    DrillResult result = run(burn(Duration.ofMinutes(1), "team-checkout"));

    List<Milestone.AlertStateChanged> changes = drill.milestones(Milestone.AlertStateChanged.class);
    String alert = "CheckoutBurn{service=\"checkout\"}";
    assertThat(changes).extracting(Milestone.AlertStateChanged::alert).containsOnly(alert);
    assertThat(changes)
        .extracting(Milestone.AlertStateChanged::state)
        .containsExactly(AlertState.PENDING, AlertState.FIRING, AlertState.RESOLVED);
    assertThat(changes)
        .extracting(Milestone.AlertStateChanged::previous)
        .containsExactly(
            Optional.empty(), Optional.of(AlertState.PENDING), Optional.of(AlertState.FIRING));
    assertThat(changes)
        .extracting(Milestone.AlertStateChanged::activeAt)
        .containsExactly(Optional.of(drill.at(12)), Optional.of(drill.at(12)), Optional.empty());
    assertThat(changes)
        .extracting(Milestone.AlertStateChanged::at)
        .containsExactly(drill.at(15), drill.at(25), drill.at(40));
    assertThat(changes)
        .extracting(Milestone.AlertStateChanged::injectedAt)
        .containsOnly(ScriptedDrill.START);
    assertThat(drill.lines())
        .containsSubsequence(
            "+15.0s detect " + alert + " pending, active since +12.0s after injection",
            "+25.0s detect " + alert + " firing",
            "+40.0s detect " + alert + " resolved");
    JsonNode resolved =
        result
            .journal()
            .json()
            .get("events")
            .get(drill.lines().indexOf("+40.0s detect " + alert + " resolved"));
    assertThat(resolved.toString())
        .as("the journal's event of the same line")
        .isEqualTo(
            "{\"at\":\"2026-11-29T10:00:40Z\",\"offset_s\":40.0,\"phase\":\"detect\",\"text\":\""
                + alert.replace("\"", "\\\"")
                + " resolved\"}");
  }

  @Test
  void anAlertStackThatCannotBeReadResolvesNothing() {
    drill.fault("errors");
    checkoutBurn().pendingAt(12).firingAt(22);
    stack.unreadable(30, 45);

    run(burn(Duration.ofMinutes(1), "team-checkout"));

    assertThat(drill.milestones(Milestone.AlertStateChanged.class))
        .extracting(Milestone.AlertStateChanged::state)
        .containsExactly(AlertState.PENDING, AlertState.FIRING);
  }

  @Test
  void anAlertTheStackNeverShowedBecauseItCouldNotBeReadIsUnknownNotMissed() {
    drill.fault("errors");
    stack.unreadable(0.5, 1000); // from just after preflight's read

    DrillResult result = run(burn(Duration.ofSeconds(40), null));

    DetectionRow row = onlyRow(result);
    assertThat(row.held()).isFalse();
    assertThat(row.unknown()).isTrue();
    assertThat(row.reason())
        .matches(
            "unknown: (\\d+) of \\1 reads of the alerts failed \\(the last: Prometheus at"
                + " http://127.0.0.1:9 is unreachable\\), so whether it fired within 40s is not"
                + " known; its floor is .*");
    assertThat(result.observability().get().verdict())
        .isEqualTo(ObservabilityResult.Verdict.INCONCLUSIVE);
    assertThat(drill.lines()).anyMatch(l -> l.contains(" unknown") && l.contains("detect "));
  }

  @Test
  void aSilentAlertTheStackCouldNotShowIsUnknownNotHeld() {
    drill.fault("errors");
    stack.unreadable(20, 25);

    DrillResult result =
        run(
            new AlertExpectation(
                "PaymentsDown",
                Map.of(),
                AlertExpectation.Expect.SILENT,
                Duration.ofSeconds(40),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                false));

    DetectionRow row = onlyRow(result);
    assertThat(row.held()).isFalse();
    assertThat(row.unknown()).isTrue();
    assertThat(row.reason())
        .startsWith("unknown: ")
        .contains(" reads of the alerts failed (the last: Prometheus at http://127.0.0.1:9")
        .endsWith("so whether it stayed silent for 40s after injection is not known");
    assertThat(result.observability().get().verdict())
        .isEqualTo(ObservabilityResult.Verdict.INCONCLUSIVE);
  }

  @Test
  void aMisroutedAlertAndAWrongRunbookAreReportedAsSuch() {
    drill.fault("errors");
    stack
        .alert(BURN_LABELS, Map.of("runbook_url", "https://wiki.example.com/old"))
        .pendingAt(5)
        .firingAt(15)
        .notifiedAt(16, "team-payments");

    DrillResult result = run(burn(Duration.ofMinutes(1), "team-checkout"));

    DetectionRow row = onlyRow(result);
    assertThat(row.held()).isFalse();
    assertThat(row.reason())
        .isEqualTo(
            "misrouted: routed to team-payments, expected team-checkout; wrong runbook: "
                + "runbook_url is \"https://wiki.example.com/old\", expected \""
                + RUNBOOK
                + "\"");
    assertThat(row.receivers()).containsExactly("team-payments");
    JsonNode journalRow = result.journal().json().get("detection").get("alerts").get(0);
    assertThat(journalRow.get("receiver_expected").asText()).isEqualTo("team-checkout");
    assertThat(journalRow.get("receivers").toString()).isEqualTo("[\"team-payments\"]");
    assertThat(result.observability().get().verdict())
        .isEqualTo(ObservabilityResult.Verdict.DEVIATED);
  }

  @Test
  void anAlertThatNeverFiresIsMissedWithItsFloorAndTheDrillWaitsOutTheWindow() {
    drill.fault("errors");

    DrillResult result = run(burn(Duration.ofSeconds(90), "team-checkout"));

    DetectionRow row = onlyRow(result);
    assertThat(row.fired()).isFalse();
    assertThat(row.reason())
        .isEqualTo(
            "missed: did not fire within 1m30s; its floor is 22.0s (the 1m window: at a "
                + "100% error ratio, 0.2 of it needs 12.0s of data, then for: 10s)");
    assertThat(drill.seconds()).isGreaterThanOrEqualTo(90.0);
  }

  @Test
  void aHeldRowWithoutANotificationSaysThatTimeToNotifyIsUnknown() {
    drill.fault("errors");
    checkoutBurn().pendingAt(12).firingAt(22);

    DrillResult result = run(burn(Duration.ofSeconds(40), null));

    DetectionRow row = onlyRow(result);
    assertThat(row.held()).isTrue();
    assertThat(row.timeToNotify()).isEmpty();
    assertThat(row.reason())
        .endsWith("; no notification reached firedrill's receiver, so time to notify is unknown");
  }

  @Test
  void aWebhookCutShortIsAWarningOnTheRowsNeverNotified() {
    drill.fault("errors");
    checkoutBurn().pendingAt(12).firingAt(22);
    stack
        .truncation(new Truncation(drill.at(23), "team-checkout", "{}:{service=\"checkout\"}", 3))
        .truncation(new Truncation(drill.at(33), "team-checkout", "{}:{service=\"checkout\"}", 2))
        .truncation(new Truncation(drill.at(23), "team-payments", "{}:{team=\"payments\"}", 7));

    DrillResult result = run(burn(Duration.ofSeconds(40), "team-checkout"));

    DetectionRow row = onlyRow(result);
    assertThat(row.fired()).isTrue();
    assertThat(row.warnings())
        .containsExactly(
            "the webhook of receiver team-checkout left out 5 alerts from 2"
                + " notifications (truncatedAlerts; max_alerts in its webhook_config), so a missing notification may be"
                + " truncation");
    assertThat(drill.lines())
        .anyMatch(
            line ->
                line.endsWith(
                    "detect CheckoutBurn{service=\"checkout\"}: warning: the"
                        + " webhook of receiver team-checkout left out 5 alerts from 2 notifications (truncatedAlerts; max_alerts in"
                        + " its webhook_config), so a missing notification may be truncation"));
    assertThat(
            result
                .journal()
                .json()
                .get("detection")
                .get("alerts")
                .get(0)
                .get("warnings")
                .get(0)
                .asText())
        .startsWith("the webhook of receiver team-checkout left out 5 alerts");
  }

  @Test
  void aNotifiedAlertHasNoTruncationWarning() {
    drill.fault("errors");
    checkoutBurn().pendingAt(12).firingAt(22).notifiedAt(23, "team-checkout");
    stack.truncation(new Truncation(drill.at(23), "team-checkout", "{}:{}", 1));

    assertThat(onlyRow(run(burn(Duration.ofSeconds(40), "team-checkout"))).warnings()).isEmpty();
  }

  @Test
  void aSilentExpectationThatFiresFails() {
    drill.fault("errors");
    stack
        .alert(
            Map.of("alertname", "PaymentsDown", "job", "payments"), Map.of("runbook_url", RUNBOOK))
        .pendingAt(3)
        .firingAt(8)
        .notifiedAt(9, "team-checkout");
    AlertExpectation silent =
        new AlertExpectation(
            "PaymentsDown",
            Map.of(),
            AlertExpectation.Expect.SILENT,
            Duration.ofSeconds(40),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            false);

    DrillResult result = run(silent);

    DetectionRow row = onlyRow(result);
    assertThat(row.held()).isFalse();
    assertThat(row.reason()).isEqualTo("fired 8.0s after injection though it must stay silent");
  }

  @Test
  void anAlertLaterThanItsWindowFails() {
    drill.fault("errors");
    checkoutBurn().pendingAt(40).firingAt(50).notifiedAt(51, "team-checkout");

    DrillResult result = run(burn(Duration.ofSeconds(45), "team-checkout"));

    assertThat(onlyRow(result).reason())
        .isEqualTo(
            "fired 50.0s after injection, later than within 45s; its floor is "
                + "22.0s (the 1m window: at a 100% error ratio, 0.2 of it needs 12.0s of data, then for: 10s)");
  }

  @Test
  void anExpectedAlertWithoutARuleIsAnInputError() {
    drill.fault("errors");
    stack.rules(rules("PaymentsDown"));

    DrillResult result = run(burn(Duration.ofMinutes(1), "team-checkout"));

    assertThat(result.verdict()).isEqualTo(Verdict.REFUSED);
    assertThat(result.reason())
        .isEqualTo(
            "hypothesis.alerts names CheckoutBurn, which no alerting rule of Prometheus "
                + "defines (expected one of: PaymentsDown)");
    assertThat(drill.log()).doesNotContain("inject errors");
  }

  @Test
  void anAlertAlreadyFiringBeforeInjectionMeansNotRun() {
    drill.fault("errors");
    checkoutBurn().pendingAt(0).firingAt(0);

    DrillResult result = run(burn(Duration.ofMinutes(1), "team-checkout"));

    assertThat(result.verdict()).isEqualTo(Verdict.NOT_RUN);
    assertThat(result.reason())
        .isEqualTo(
            "CheckoutBurn{service=\"checkout\"} is already firing, so its time to detect "
                + "would mean nothing; nothing was injected");
    assertThat(result.observability()).isEmpty();
  }
}
