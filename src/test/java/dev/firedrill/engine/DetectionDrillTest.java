package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.alerting.AlertStack;
import dev.firedrill.alerting.AlertStackException;
import dev.firedrill.alerting.AlertState;
import dev.firedrill.alerting.Delivery;
import dev.firedrill.alerting.Detection;
import dev.firedrill.alerting.DetectionRow;
import dev.firedrill.alerting.ObservabilityResult;
import dev.firedrill.alerting.PromAlert;
import dev.firedrill.alerting.RoutedAlert;
import dev.firedrill.alerting.RuleBook;
import dev.firedrill.alerting.Truncation;
import dev.firedrill.experiment.AlertExpectation;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.Hypothesis;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Whole drills on a virtual clock with a scripted alert stack: each detection outcome, row by row. */
class DetectionDrillTest {

  private static final String RUNBOOK = "https://runbooks.example.com/checkout/burn";
  private static final Map<String, String> BURN_LABELS =
      Map.of("alertname", "CheckoutBurn", "service", "checkout", "team", "checkout");

  private final ScriptedWorld world = new ScriptedWorld();
  private final ScriptedStack stack = new ScriptedStack();

  /** The stack the test scripts: an alert that goes pending and fires at given offsets, and its webhook. */
  private final class ScriptedStack implements AlertStack {
    double pendingAt = Double.MAX_VALUE;
    double firingAt = Double.MAX_VALUE;
    double notifiedAt = Double.MAX_VALUE;
    /** From here on Prometheus no longer lists the alert. */
    double resolvedAt = Double.MAX_VALUE;
    /** Prometheus does not answer from {@code unreadableFrom} until {@code unreadableUntil}. */
    double unreadableFrom = Double.MAX_VALUE;
    double unreadableUntil = Double.MAX_VALUE;
    String receiver = "team-checkout";
    String runbook = RUNBOOK;
    Map<String, String> labels = BURN_LABELS;
    List<String> ruleNames = List.of("CheckoutBurn", "PaymentsDown");
    List<Truncation> truncations = List.of();

    @Override
    public RuleBook rules() {
      List<RuleBook.AlertRule> rules = new ArrayList<>();
      rules.add(new RuleBook.AlertRule("CheckoutBurn", "checkout:error_ratio:rate1m > 0.2", Duration.ofSeconds(10),
          Duration.ofSeconds(1), Map.of(), Map.of()));
      rules.add(new RuleBook.AlertRule("PaymentsDown", "up{job=\"payments\"} == 0", Duration.ofSeconds(5),
          Duration.ofSeconds(1), Map.of(), Map.of()));
      return new RuleBook(rules.stream().filter(r -> ruleNames.contains(r.name())).toList(),
          Map.of("checkout:error_ratio:rate1m", "sum(rate(errors[1m])) / sum(rate(requests[1m]))"),
          Duration.ofSeconds(1), Duration.ofSeconds(1));
    }

    @Override
    public List<PromAlert> alerts() throws AlertStackException {
      double t = world.seconds();
      if (t >= unreadableFrom && t < unreadableUntil) {
        throw new AlertStackException("Prometheus at http://127.0.0.1:9 is unreachable");
      }
      if (t < pendingAt || t >= resolvedAt) {
        return List.of();
      }
      return List.of(new PromAlert(labels, Map.of("runbook_url", runbook), t >= firingAt ? "firing" : "pending",
          Optional.of(at(pendingAt))));
    }

    @Override
    public List<RoutedAlert> routed() {
      return List.of();
    }

    @Override
    public List<Delivery> deliveries() {
      if (world.seconds() < notifiedAt) {
        return List.of();
      }
      return List.of(new Delivery(at(notifiedAt), receiver, "firing", labels, Map.of("runbook_url", runbook),
          at(firingAt), "fp1"));
    }

    @Override
    public List<Truncation> truncations() {
      return truncations;
    }

    @Override
    public Optional<Integer> linkStatus(String url) {
      return Optional.of(200);
    }
  }

  private static Instant at(double seconds) {
    return ScriptedWorld.START.plusMillis((long) (seconds * 1000));
  }

  private DrillResult run(AlertExpectation... expectations) {
    Experiment base = world.experiment();
    Experiment experiment = new Experiment(base.id(), base.title(), base.owner(), base.prometheus(), base.steadyState(),
        new Hypothesis("", Duration.ofSeconds(30), List.of(expectations)), base.method(), base.abort(),
        base.blastRadius());
    Detection detection = new Detection(experiment.hypothesis().alerts(), stack, true, false);
    return world.run(experiment, Optional.of(detection));
  }

  private static AlertExpectation burn(Duration within, String receiver) {
    return new AlertExpectation("CheckoutBurn", Map.of("service", "checkout"), AlertExpectation.Expect.FIRING, within,
        Optional.of(receiver), Optional.of(RUNBOOK), Optional.empty(), false);
  }

  private DetectionRow onlyRow(DrillResult result) {
    assertThat(result.observability()).isPresent();
    assertThat(result.observability().get().rows()).hasSize(1);
    return result.observability().get().rows().get(0);
  }

  @Test
  void anAlertThatFiresInTimeToTheRightReceiverHolds() {
    world.fault("errors");
    stack.pendingAt = 12;
    stack.firingAt = 22;
    stack.notifiedAt = 23.5;

    DrillResult result = run(burn(Duration.ofMinutes(1), "team-checkout"));

    DetectionRow row = onlyRow(result);
    assertThat(row.held()).isTrue();
    assertThat(row.timeToDetect()).contains(Duration.ofSeconds(22));
    assertThat(row.timeToNotify()).contains(Duration.ofMillis(1500));
    assertThat(row.floor().get().value()).isEqualTo(Duration.ofSeconds(22));
    assertThat(row.floor().get().reason()).isEqualTo("the 1m window: at a 100% error ratio, 0.2 of it needs 12.0s of data, then for: 10s");
    assertThat(result.observability().get().verdict()).isEqualTo(ObservabilityResult.Verdict.HELD);
    assertThat(world.lines()).contains(
        "+15.0s detect CheckoutBurn{service=\"checkout\"} pending, active since +12.0s after injection",
        "+25.0s detect CheckoutBurn{service=\"checkout\"}: fired 22.0s after injection (webhook startsAt); floor 22.0s (the 1m window: at a 100% error ratio, 0.2 of it needs 12.0s of data, then for: 10s)".replace("+25.0s", "+60.0s"),
        "+25.0s detect CheckoutBurn{service=\"checkout\"} notified to team-checkout at +23.5s after injection (startsAt +22.0s after injection)");
    assertThat(result.journal().json().get("detection").get("alerts").get(0).get("time_to_detect_s").asDouble()).isEqualTo(22.0);
  }

  @Test
  void eachChangeOfAnExpectedAlertsStateIsAMilestoneWithItsActiveAt() {
    world.fault("errors");
    stack.pendingAt = 12;
    stack.firingAt = 22;
    stack.notifiedAt = 23.5;
    stack.resolvedAt = 40;

    DrillResult result = run(burn(Duration.ofMinutes(1), "team-checkout"));

    List<Milestone.AlertStateChanged> changes = world.milestones.stream()
        .filter(Milestone.AlertStateChanged.class::isInstance).map(Milestone.AlertStateChanged.class::cast).toList();
    String alert = "CheckoutBurn{service=\"checkout\"}";
    assertThat(changes).extracting(Milestone.AlertStateChanged::alert).containsOnly(alert);
    assertThat(changes).extracting(Milestone.AlertStateChanged::state)
        .containsExactly(AlertState.PENDING, AlertState.FIRING, AlertState.RESOLVED);
    assertThat(changes).extracting(Milestone.AlertStateChanged::previous)
        .containsExactly(Optional.empty(), Optional.of(AlertState.PENDING), Optional.of(AlertState.FIRING));
    assertThat(changes).extracting(Milestone.AlertStateChanged::activeAt)
        .containsExactly(Optional.of(at(12)), Optional.of(at(12)), Optional.empty());
    assertThat(changes).extracting(Milestone.AlertStateChanged::at).containsExactly(at(15), at(25), at(40));
    assertThat(changes).extracting(Milestone.AlertStateChanged::injectedAt).containsOnly(ScriptedWorld.START);
    assertThat(world.lines()).containsSubsequence(
        "+15.0s detect " + alert + " pending, active since +12.0s after injection",
        "+25.0s detect " + alert + " firing",
        "+40.0s detect " + alert + " resolved");
    JsonNode resolved = result.journal().json().get("events").get(world.lines().indexOf(
        "+40.0s detect " + alert + " resolved"));
    assertThat(resolved.toString()).as("the journal's event of the same line").isEqualTo(
        "{\"at\":\"2026-11-29T10:00:40Z\",\"offset_s\":40.0,\"phase\":\"detect\",\"text\":\""
            + alert.replace("\"", "\\\"") + " resolved\"}");
  }

  @Test
  void anAlertStackThatCannotBeReadResolvesNothing() {
    world.fault("errors");
    stack.pendingAt = 12;
    stack.firingAt = 22;
    stack.unreadableFrom = 30;
    stack.unreadableUntil = 45;

    run(burn(Duration.ofMinutes(1), "team-checkout"));

    assertThat(world.milestones).filteredOn(Milestone.AlertStateChanged.class::isInstance)
        .extracting(m -> ((Milestone.AlertStateChanged) m).state())
        .containsExactly(AlertState.PENDING, AlertState.FIRING);
  }

  @Test
  void aMisroutedAlertAndAWrongRunbookAreReportedAsSuch() {
    world.fault("errors");
    stack.pendingAt = 5;
    stack.firingAt = 15;
    stack.notifiedAt = 16;
    stack.receiver = "team-payments";
    stack.runbook = "https://wiki.example.com/old";

    DrillResult result = run(burn(Duration.ofMinutes(1), "team-checkout"));

    DetectionRow row = onlyRow(result);
    assertThat(row.held()).isFalse();
    assertThat(row.reason()).isEqualTo("misrouted: routed to team-payments, expected team-checkout; wrong runbook: "
        + "runbook_url is \"https://wiki.example.com/old\", expected \"" + RUNBOOK + "\"");
    assertThat(row.receivers()).containsExactly("team-payments");
    JsonNode journalRow = result.journal().json().get("detection").get("alerts").get(0);
    assertThat(journalRow.get("receiver_expected").asText()).isEqualTo("team-checkout");
    assertThat(journalRow.get("receivers").toString()).isEqualTo("[\"team-payments\"]");
    assertThat(result.observability().get().verdict()).isEqualTo(ObservabilityResult.Verdict.DEVIATED);
  }

  @Test
  void anAlertThatNeverFiresIsMissedWithItsFloorAndTheDrillWaitsOutTheWindow() {
    world.fault("errors");

    DrillResult result = run(burn(Duration.ofSeconds(90), "team-checkout"));

    DetectionRow row = onlyRow(result);
    assertThat(row.fired()).isFalse();
    assertThat(row.reason()).isEqualTo("missed: did not fire within 1m30s; its floor is 22.0s (the 1m window: at a "
        + "100% error ratio, 0.2 of it needs 12.0s of data, then for: 10s)");
    assertThat(world.seconds()).isGreaterThanOrEqualTo(90.0);
  }

  @Test
  void aWebhookCutShortIsAWarningOnTheRowsNeverNotified() {
    world.fault("errors");
    stack.pendingAt = 12;
    stack.firingAt = 22;
    stack.truncations = List.of(
        new Truncation(at(23), "team-checkout", "{}:{service=\"checkout\"}", 3),
        new Truncation(at(33), "team-checkout", "{}:{service=\"checkout\"}", 2),
        new Truncation(at(23), "team-payments", "{}:{team=\"payments\"}", 7));

    DrillResult result = run(burn(Duration.ofSeconds(40), "team-checkout"));

    DetectionRow row = onlyRow(result);
    assertThat(row.fired()).isTrue();
    assertThat(row.warnings()).containsExactly("the webhook of receiver team-checkout left out 5 alerts from 2"
        + " notifications (truncatedAlerts; max_alerts in its webhook_config), so a missing notification may be"
        + " truncation");
    assertThat(world.lines()).anyMatch(line -> line.endsWith("detect CheckoutBurn{service=\"checkout\"}: warning: the"
        + " webhook of receiver team-checkout left out 5 alerts from 2 notifications (truncatedAlerts; max_alerts in"
        + " its webhook_config), so a missing notification may be truncation"));
    assertThat(result.journal().json().get("detection").get("alerts").get(0).get("warnings").get(0).asText())
        .startsWith("the webhook of receiver team-checkout left out 5 alerts");
  }

  @Test
  void aNotifiedAlertHasNoTruncationWarning() {
    world.fault("errors");
    stack.pendingAt = 12;
    stack.firingAt = 22;
    stack.notifiedAt = 23;
    stack.truncations = List.of(new Truncation(at(23), "team-checkout", "{}:{}", 1));

    assertThat(onlyRow(run(burn(Duration.ofSeconds(40), "team-checkout"))).warnings()).isEmpty();
  }

  @Test
  void aSilentExpectationThatFiresFails() {
    world.fault("errors");
    stack.labels = Map.of("alertname", "PaymentsDown", "job", "payments");
    stack.pendingAt = 3;
    stack.firingAt = 8;
    stack.notifiedAt = 9;
    AlertExpectation silent = new AlertExpectation("PaymentsDown", Map.of(), AlertExpectation.Expect.SILENT,
        Duration.ofSeconds(40), Optional.empty(), Optional.empty(), Optional.empty(), false);

    DrillResult result = run(silent);

    DetectionRow row = onlyRow(result);
    assertThat(row.held()).isFalse();
    assertThat(row.reason()).isEqualTo("fired 8.0s after injection though it must stay silent");
  }

  @Test
  void anAlertLaterThanItsWindowFails() {
    world.fault("errors");
    stack.pendingAt = 40;
    stack.firingAt = 50;
    stack.notifiedAt = 51;

    DrillResult result = run(burn(Duration.ofSeconds(45), "team-checkout"));

    assertThat(onlyRow(result).reason()).isEqualTo("fired 50.0s after injection, later than within 45s; its floor is "
        + "22.0s (the 1m window: at a 100% error ratio, 0.2 of it needs 12.0s of data, then for: 10s)");
  }

  @Test
  void anExpectedAlertWithoutARuleIsAnInputError() {
    world.fault("errors");
    stack.ruleNames = List.of("PaymentsDown");

    DrillResult result = run(burn(Duration.ofMinutes(1), "team-checkout"));

    assertThat(result.verdict()).isEqualTo(Verdict.REFUSED);
    assertThat(result.reason()).isEqualTo("hypothesis.alerts names CheckoutBurn, which no alerting rule of Prometheus "
        + "defines (expected one of: PaymentsDown)");
    assertThat(world.log).doesNotContain("inject errors");
  }

  @Test
  void anAlertAlreadyFiringBeforeInjectionMeansNotRun() {
    world.fault("errors");
    stack.pendingAt = 0;
    stack.firingAt = 0;

    DrillResult result = run(burn(Duration.ofMinutes(1), "team-checkout"));

    assertThat(result.verdict()).isEqualTo(Verdict.NOT_RUN);
    assertThat(result.reason()).isEqualTo("CheckoutBurn{service=\"checkout\"} is already firing, so its time to detect "
        + "would mean nothing; nothing was injected");
    assertThat(result.observability()).isEmpty();
  }
}
