package dev.firedrill.embedded.rules;

import static dev.firedrill.embedded.rules.RuleHarness.sample;
import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.embedded.notify.OutgoingAlert;
import dev.firedrill.embedded.rules.snapshot.AlertSnapshot;
import dev.firedrill.embedded.rules.snapshot.RuleSnapshot;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.StaleNaN;
import dev.firedrill.promql.model.StoredSeries;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The alert state machine on a virtual clock: a 10 s group, driven one evaluation at a time. */
class AlertingRuleTest {

  private static final long START = 1_700_000_000_000L;
  private static final RuleManager.Options OPTIONS =
      new RuleManager.Options(10_000, 60_000, Map.of("cluster", "lab"), "http://127.0.0.1:9090");

  private static final String RULES =
      """
      groups:
        - name: drill
          interval: 10s
          rules:
            - alert: HighErrors
              expr: errors > 1
              for: 30s
              keep_firing_for: 20s
              labels:
                severity: '{{ if gt $value 10.0 }}page{{ else }}ticket{{ end }}'
              annotations:
                summary: '{{ $labels.job }} has {{ $value }} errors in {{ $externalLabels.cluster }}'
      """;

  private final AtomicBoolean errors = new AtomicBoolean();
  private final RuleHarness rules = new RuleHarness(RULES, OPTIONS);

  AlertingRuleTest() {
    rules.answer(
        "HighErrors",
        t -> errors.get() ? List.of(sample(5, "__name__", "errors", "job", "api")) : List.of());
  }

  private AlertSnapshot onlyAlert() {
    List<AlertSnapshot> alerts = rules.manager.alerts();
    assertThat(alerts).hasSize(1);
    return alerts.get(0);
  }

  @Test
  void pendingForItsForThenFiringWithTemplatedLabelsAndAnnotations() {
    long first = rules.start(START);
    errors.set(true);
    long activeAt = rules.step();
    assertThat(activeAt).isEqualTo(first);
    AlertSnapshot pending = onlyAlert();
    assertThat(pending.state()).isEqualTo("pending");
    assertThat(pending.activeAt()).contains(Instant.ofEpochMilli(activeAt));
    assertThat(pending.labels())
        .isEqualTo(Map.of("alertname", "HighErrors", "job", "api", "severity", "ticket"));
    assertThat(pending.annotations()).isEqualTo(Map.of("summary", "api has 5 errors in lab"));
    assertThat(pending.value()).isEqualTo("5e+00");
    assertThat(rules.sent).isEmpty();

    rules.step();
    rules.step();
    assertThat(onlyAlert().state()).as("20 s active of a 30 s for").isEqualTo("pending");
    long firedAt = rules.step();
    assertThat(firedAt - activeAt).isEqualTo(30_000);
    assertThat(onlyAlert().state()).isEqualTo("firing");
    assertThat(onlyAlert().activeAt()).contains(Instant.ofEpochMilli(activeAt));

    assertThat(rules.sent).hasSize(1);
    OutgoingAlert out = rules.sent.get(0).get(0);
    assertThat(out.startsAt()).isEqualTo(Instant.ofEpochMilli(firedAt));
    assertThat(out.endsAt())
        .as("4 x max(resend 1m, interval 10s)")
        .isEqualTo(Instant.ofEpochMilli(firedAt + 240_000));
    assertThat(out.labels()).isEqualTo(pending.labels());
    assertThat(out.generatorUrl())
        .isEqualTo("http://127.0.0.1:9090/graph?g0.expr=errors+%3E+1&g0.tab=1");

    RuleSnapshot.Alerting rule =
        (RuleSnapshot.Alerting) rules.manager.groups().get(0).rules().get(0);
    assertThat(rule.state()).isEqualTo("firing");
    assertThat(rule.health()).isEqualTo("ok");
    assertThat(rule.lastError()).isEmpty();
    assertThat(rule.duration()).isEqualTo(30.0);
    assertThat(rule.keepFiringFor()).isEqualTo(20.0);
    assertThat(rule.lastEvaluation()).contains(Instant.ofEpochMilli(firedAt));
  }

  @Test
  void alertsSeriesCarryStateAndForStateEveryEvaluationAndGoStaleWhenTheAlertEnds() {
    rules.start(START);
    errors.set(true);
    long activeAt = rules.step();
    rules.step();
    rules.step();
    long firedAt = rules.step();
    errors.set(false);
    long stillFiring = rules.step();
    rules.step();
    long resolvedAt = rules.step();
    assertThat(resolvedAt - stillFiring).as("keep_firing_for 20s").isEqualTo(20_000);
    assertThat(rules.manager.alerts()).isEmpty();

    LabelSet base = LabelSet.of("alertname", "HighErrors", "job", "api", "severity", "ticket");
    List<StoredSeries> alerts = rules.series("ALERTS");
    assertThat(alerts)
        .extracting(StoredSeries::labels)
        .containsExactly(
            base.toBuilder().set("__name__", "ALERTS").set("alertstate", "firing").build(),
            base.toBuilder().set("__name__", "ALERTS").set("alertstate", "pending").build());
    StoredSeries firing = alerts.get(0);
    assertThat(times(firing))
        .containsExactly(firedAt, stillFiring, stillFiring + 10_000, resolvedAt);
    assertThat(firing.values()[0]).isEqualTo(1.0);
    assertThat(StaleNaN.is(firing.values()[firing.count() - 1])).isTrue();
    StoredSeries pending = alerts.get(1);
    assertThat(times(pending))
        .containsExactly(activeAt, activeAt + 10_000, activeAt + 20_000, firedAt);
    assertThat(StaleNaN.is(pending.values()[3]))
        .as("the pending series ends when the alert fires")
        .isTrue();

    StoredSeries forState = rules.series("ALERTS_FOR_STATE").get(0);
    assertThat(forState.labels())
        .isEqualTo(base.toBuilder().set("__name__", "ALERTS_FOR_STATE").build());
    assertThat(forState.values()[0]).isEqualTo(Math.floorDiv(activeAt, 1000));
    assertThat(forState.values()[5])
        .as("unchanged once firing")
        .isEqualTo(Math.floorDiv(activeAt, 1000));
  }

  @Test
  void keepFiringSinceIsSetWhileTheResultIsGoneAndClearedWhenItReturns() {
    rules.start(START);
    errors.set(true);
    for (int i = 0; i < 4; i++) {
      rules.step();
    }
    errors.set(false);
    long gone = rules.step();
    assertThat(onlyAlert().state()).isEqualTo("firing");
    assertThat(onlyAlert().keepFiringSince()).contains(Instant.ofEpochMilli(gone));
    errors.set(true);
    rules.step();
    assertThat(onlyAlert().keepFiringSince()).isEmpty();
    assertThat(onlyAlert().state()).isEqualTo("firing");
  }

  @Test
  void aPendingAlertWhoseResultGoesIsDroppedAndNeverSent() {
    rules.start(START);
    errors.set(true);
    rules.step();
    rules.step();
    errors.set(false);
    rules.step();
    assertThat(rules.manager.alerts()).isEmpty();
    assertThat(rules.sent).isEmpty();
    errors.set(true);
    long again = rules.step();
    assertThat(onlyAlert().activeAt())
        .as("a new alert, active from now")
        .contains(Instant.ofEpochMilli(again));
  }

  @Test
  void firingIsResentAfterTheResendDelayAndTheResolutionForFifteenMinutes() {
    rules.start(START);
    errors.set(true);
    for (int i = 0; i < 3; i++) {
      rules.step();
    }
    long firedAt = rules.step();
    for (int i = 0; i < 6; i++) {
      rules.step();
    }
    assertThat(rules.sent)
        .as("sent when it fired, not again within the 1 m resend delay")
        .hasSize(1);
    long resent = rules.step();
    assertThat(resent - firedAt).isEqualTo(70_000);
    assertThat(rules.sent).hasSize(2);
    assertThat(rules.sent.get(1).get(0).startsAt()).isEqualTo(Instant.ofEpochMilli(firedAt));
    assertThat(rules.sent.get(1).get(0).endsAt()).isEqualTo(Instant.ofEpochMilli(resent + 240_000));

    errors.set(false);
    rules.step();
    long resolvedAt = rules.step() + 10_000;
    rules.step();
    assertThat(rules.sent).hasSize(3);
    OutgoingAlert resolved = rules.sent.get(2).get(0);
    assertThat(resolved.startsAt()).isEqualTo(Instant.ofEpochMilli(firedAt));
    assertThat(resolved.endsAt()).isEqualTo(Instant.ofEpochMilli(resolvedAt));

    long last = resolvedAt;
    while (last - resolvedAt <= AlertingRule.RESOLVED_RETENTION_MS + 20_000) {
      last = rules.step();
    }
    List<Long> resolvedSends =
        rules.sent.subList(2, rules.sent.size()).stream()
            .map(batch -> batch.get(0).endsAt().toEpochMilli())
            .distinct()
            .toList();
    assertThat(resolvedSends).containsExactly(resolvedAt);
    assertThat(rules.sent.size() - 2)
        .as("resolution sent at once, then every 70 s for 15 min")
        .isEqualTo(13);
  }

  private static List<Long> times(StoredSeries series) {
    return java.util.stream.LongStream.of(series.timestamps())
        .limit(series.count())
        .boxed()
        .toList();
  }

  @Test
  void noAlertSnapshotBeforeAnyEvaluation() {
    RuleSnapshot.Alerting rule =
        (RuleSnapshot.Alerting) rules.manager.groups().get(0).rules().get(0);
    assertThat(rule.health()).isEqualTo("unknown");
    assertThat(rule.lastEvaluation()).isEqualTo(Optional.empty());
    assertThat(rule.state()).isEqualTo("inactive");
  }
}
