package dev.firedrill.embedded.alertmanager;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.embedded.alertmanager.alert.Alert;
import dev.firedrill.embedded.alertmanager.config.AlertmanagerConfig;
import dev.firedrill.embedded.alertmanager.webhook.SendResult;
import dev.firedrill.embedded.drive.VirtualDriver;
import dev.firedrill.time.VirtualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The dispatcher's timing on a virtual clock: every expected instant is exact. */
class DispatcherTimingTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant FAR = T0.plus(Duration.ofDays(1));

  private static final String CONFIG =
      """
      route:
        receiver: default
        group_by: [alertname]
        group_wait: 30s
        group_interval: 5m
        repeat_interval: 1h
        routes:
          - receiver: team-payments
            matchers: ['team="payments"']
            continue: true
          - receiver: team-all
            matchers: ['team=~".+"']
            group_by: ['...']
            group_wait: 10s
            group_interval: 1m
      receivers:
        - name: default
          webhook_configs:
            - url: http://127.0.0.1:1/default
        - name: team-payments
          webhook_configs:
            - url: http://127.0.0.1:1/payments
              send_resolved: false
        - name: team-all
          webhook_configs:
            - url: http://127.0.0.1:1/all
      """;

  private final VirtualClock clock = new VirtualClock(T0);
  private final RecordingSender sender = new RecordingSender(clock);
  private final List<String> events = new ArrayList<>();
  private final VirtualAlertmanager am = start(CONFIG);

  private VirtualAlertmanager start(String config) {
    try {
      return VirtualAlertmanager.start(
          AlertmanagerConfig.parse("alertmanager.yml", config),
          VirtualDriver.on(clock),
          sender,
          "http://127.0.0.1:9093",
          events::add);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private Alert alert(Map<String, String> labels, Instant startsAt, Instant endsAt) {
    return new Alert(
        new TreeMap<>(labels), new TreeMap<>(), startsAt, endsAt, "", clock.now(), false);
  }

  private void put(Alert... alerts) {
    am.put(List.of(alerts));
  }

  @Test
  void aNewGroupFlushesGroupWaitAfterItsFirstAlert() throws Exception {
    put(alert(Map.of("alertname", "Down"), T0, FAR));
    clock.advance(Duration.ofMillis(29_999));
    assertThat(sender.sent()).isEmpty();
    clock.advance(Duration.ofMillis(1));
    assertThat(sender.sent())
        .extracting(RecordingSender.Sent::at)
        .containsExactly(T0.plusSeconds(30));
    assertThat(sender.sent().get(0).receiver()).isEqualTo("default");
  }

  @Test
  void aGroupWhoseAlertStartedMoreThanGroupWaitAgoFlushesAtOnce() throws Exception {
    clock.advance(Duration.ofMinutes(2));
    put(alert(Map.of("alertname", "Old"), T0, FAR));
    clock.advance(Duration.ZERO);
    assertThat(sender.sent())
        .extracting(RecordingSender.Sent::at)
        .containsExactly(T0.plusSeconds(120));
  }

  @Test
  void anAlertStartedExactlyGroupWaitAgoStillWaits() throws Exception {
    // Alertmanager's test is startsAt + group_wait strictly before now.
    clock.advance(Duration.ofSeconds(30));
    put(alert(Map.of("alertname", "Edge"), T0, FAR));
    clock.advance(Duration.ofSeconds(29));
    assertThat(sender.sent()).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    assertThat(sender.sent())
        .extracting(RecordingSender.Sent::at)
        .containsExactly(T0.plusSeconds(60));
  }

  @Test
  void aNewAlertInAFlushedGroupWaitsForTheNextGroupInterval() throws Exception {
    put(alert(Map.of("alertname", "Down", "instance", "a"), T0, FAR));
    clock.advance(Duration.ofSeconds(40));
    put(alert(Map.of("alertname", "Down", "instance", "b"), T0.plusSeconds(40), FAR));
    clock.advance(Duration.ofMinutes(10));
    assertThat(sender.sent())
        .extracting(RecordingSender.Sent::at)
        .containsExactly(T0.plusSeconds(30), T0.plusSeconds(330));
    assertThat(sender.sent().get(1).alertnames()).containsExactly("Down/a:firing", "Down/b:firing");
  }

  @Test
  void anUnchangedGroupRepeatsAtTheFirstFlushAfterRepeatInterval() throws Exception {
    put(alert(Map.of("alertname", "Down"), T0, FAR));
    clock.advance(Duration.ofHours(2));
    // 30s, then 1h0m30s is not strictly after the repeat interval; 1h5m30s is.
    assertThat(sender.sent())
        .extracting(RecordingSender.Sent::at)
        .containsExactly(T0.plusSeconds(30), T0.plusSeconds(3930));
  }

  @Test
  void aResolvedAlertIsSentAtTheNextFlushAndLeavesItsGroup() throws Exception {
    put(alert(Map.of("alertname", "Down"), T0, FAR));
    clock.advance(Duration.ofMinutes(1));
    put(alert(Map.of("alertname", "Down"), T0, T0.plusSeconds(60)));
    clock.advance(Duration.ofSeconds(270));
    assertThat(sender.sent())
        .extracting(RecordingSender.Sent::at, RecordingSender.Sent::status)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(T0.plusSeconds(30), "firing"),
            org.assertj.core.groups.Tuple.tuple(T0.plusSeconds(330), "resolved"));
    assertThat(sender.sent().get(1).json().get("alerts").get(0).get("endsAt").asText())
        .isEqualTo("2026-01-01T00:01:00Z");
    assertThat(am.dispatcher().groups()).isEqualTo(Map.of("{}:{alertname=\"Down\"}", List.of()));
    // The dispatcher's 30 s cleanup drops the empty group (at 5m30s, the same instant as the flush,
    // it ran first).
    clock.advance(Duration.ofSeconds(30));
    assertThat(am.dispatcher().groups()).isEmpty();
    clock.advance(Duration.ofMinutes(20));
    assertThat(sender.sent()).hasSize(2);
  }

  @Test
  void withoutSendResolvedAResolvedGroupSendsNothing() throws Exception {
    put(alert(Map.of("alertname", "Pay", "team", "payments"), T0, FAR));
    clock.advance(Duration.ofMinutes(1));
    put(alert(Map.of("alertname", "Pay", "team", "payments"), T0, T0.plusSeconds(60)));
    clock.advance(Duration.ofMinutes(20));
    assertThat(sender.sent())
        .filteredOn(s -> s.receiver().equals("team-payments"))
        .extracting(RecordingSender.Sent::at, RecordingSender.Sent::status)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(T0.plusSeconds(30), "firing"));
  }

  @Test
  void anAlertWithoutEndsAtResolvesAfterResolveTimeout() throws Exception {
    // The API makes endsAt now + resolve_timeout (5m by default) and marks it a timeout.
    put(
        new Alert(
            new TreeMap<>(Map.of("alertname", "Quiet")),
            new TreeMap<>(),
            T0,
            T0.plus(Duration.ofMinutes(5)),
            "",
            T0,
            true));
    clock.advance(Duration.ofMinutes(11));
    assertThat(sender.sent())
        .extracting(RecordingSender.Sent::at, RecordingSender.Sent::status)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(T0.plusSeconds(30), "firing"),
            org.assertj.core.groups.Tuple.tuple(T0.plusSeconds(330), "resolved"));
  }

  @Test
  void continueSendsToTheNextMatchingRouteToo() throws Exception {
    put(alert(Map.of("alertname", "Pay", "team", "payments", "instance", "x"), T0, FAR));
    clock.advance(Duration.ofMinutes(1));
    assertThat(sender.sent())
        .extracting(RecordingSender.Sent::at, RecordingSender.Sent::receiver)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(T0.plusSeconds(10), "team-all"),
            org.assertj.core.groups.Tuple.tuple(T0.plusSeconds(30), "team-payments"));
    assertThat(sender.sent().get(0).json().get("groupKey").asText())
        .isEqualTo("{}/{team=~\".+\"}:{alertname=\"Pay\", instance=\"x\", team=\"payments\"}");
    assertThat(sender.sent().get(1).json().get("groupKey").asText())
        .isEqualTo("{}/{team=\"payments\"}:{alertname=\"Pay\"}");
  }

  @Test
  void groupByPutsAlertsWithTheSameLabelsTogetherAndTheWildcardEachLabelSetApart()
      throws Exception {
    put(
        alert(Map.of("alertname", "Pay", "team", "payments", "instance", "b"), T0, FAR),
        alert(Map.of("alertname", "Pay", "team", "payments", "instance", "a"), T0, FAR),
        alert(Map.of("alertname", "Other", "team", "payments"), T0, FAR));
    clock.advance(Duration.ofMinutes(1));
    assertThat(sender.sent())
        .filteredOn(s -> s.receiver().equals("team-payments"))
        .extracting(RecordingSender.Sent::alertnames)
        .containsExactlyInAnyOrder(
            List.of("Pay/a:firing", "Pay/b:firing"), List.of("Other/:firing"));
    assertThat(sender.sent()).filteredOn(s -> s.receiver().equals("team-all")).hasSize(3);
  }

  @Test
  void aWebhookAnswering5xxIsRetriedWithBackoffUntilItSucceeds() throws Exception {
    sender.answer(
        new SendResult.Retry("unexpected status code 500"),
        new SendResult.Retry("unexpected status code 502"));
    put(alert(Map.of("alertname", "Down"), T0, FAR));
    clock.advance(Duration.ofMinutes(1));
    assertThat(sender.sent())
        .extracting(RecordingSender.Sent::at)
        .containsExactly(T0.plusSeconds(30), T0.plusMillis(30_500), T0.plusMillis(31_250));
    assertThat(events)
        .containsExactly(
            "default/webhook[0]: attempt 1 failed, retrying in 500ms: unexpected status code 500",
            "default/webhook[0]: attempt 2 failed, retrying in 750ms: unexpected status code 502");
  }

  @Test
  void aFailedFlushIsNotLoggedSoTheNextFlushSendsAgain() throws Exception {
    sender.answer(new SendResult.Failed("unexpected status code 400"));
    put(alert(Map.of("alertname", "Down"), T0, FAR));
    clock.advance(Duration.ofMinutes(6));
    assertThat(sender.sent())
        .extracting(RecordingSender.Sent::at)
        .containsExactly(T0.plusSeconds(30), T0.plusSeconds(330));
    assertThat(events)
        .containsExactly(
            "default/webhook[0]: not retried after attempt 1: unexpected status code 400");
  }
}
