package dev.firedrill.embedded.alertmanager;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.alerting.receiver.Notification;
import dev.firedrill.alerting.receiver.ReceiverConfig;
import dev.firedrill.alerting.receiver.WebhookReceiver;
import dev.firedrill.alerting.webhook.WebhookMessage;
import dev.firedrill.embedded.alertmanager.api.ApiServer;
import dev.firedrill.embedded.alertmanager.config.AlertmanagerConfig;
import dev.firedrill.embedded.alertmanager.webhook.HttpSender;
import dev.firedrill.lab.stack.LocalAlertmanager;
import dev.firedrill.lab.stack.TempDirs;
import dev.firedrill.net.HostPort;
import dev.firedrill.net.Loopback;
import dev.firedrill.testing.RequiredBinary;
import dev.firedrill.time.Clock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The embedded Alertmanager against the real {@code prometheus-alertmanager}: the same config (the
 * lab's, with a paging route that continues, short timings, and webhooks on loopback), the same
 * alerts posted to both at the same moments; every webhook each sends must match the other's in
 * receiver, group, status and alerts, and arrive within 100 ms plus one group_interval of it.
 *
 * <p>Posts happen on even seconds after the first and at 0.5 s, the groups' flushes on odd seconds
 * and at x.5 s, so neither side can see a post on the other side of a flush than its twin.
 */
class AlertmanagerDifferentialTest {

  private static final Duration GROUP_INTERVAL = Duration.ofSeconds(2);
  private static final Duration TOLERANCE = Duration.ofMillis(100).plus(GROUP_INTERVAL);

  /**
   * The last flushes that notify fall at 13 s; the next at 16.5 s, so late ones are seen and none
   * is cut in two.
   */
  private static final Duration OBSERVED = Duration.ofSeconds(16);

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String CONFIG =
      """
      global:
        resolve_timeout: 1m
      route:
        receiver: unrouted
        group_by: [alertname, service]
        group_wait: 1s
        group_interval: 2s
        repeat_interval: 7s
        routes:
          - receiver: pager
            matchers: ['severity="page"']
            continue: true
          - receiver: team-payments
            matchers: ['team="payments"']
          - receiver: team-checkout
            matchers: ['team="checkout"']
      receivers:
        - name: unrouted
          webhook_configs:
            - url: %1$s/unrouted
        - name: pager
          webhook_configs:
            - url: %1$s/pager
              send_resolved: false
        - name: team-payments
          webhook_configs:
            - url: %1$s/team-payments
              send_resolved: true
        - name: team-checkout
          webhook_configs:
            - url: %1$s/team-checkout
              send_resolved: true
      """;

  private final Clock clock = Clock.system();
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void theEmbeddedAlertmanagerSendsTheWebhooksTheRealOneSends() throws Exception {
    Path binary =
        RequiredBinary.find(
            "prometheus-alertmanager", "FIREDRILL_ALERTMANAGER", "prometheus-alertmanager");
    Path dir = TempDirs.create("firedrill-am-differential-");
    List<String> events = new CopyOnWriteArrayList<>();
    try (WebhookReceiver realHooks = WebhookReceiver.start(ReceiverConfig.defaults(), clock);
        WebhookReceiver embeddedHooks = WebhookReceiver.start(ReceiverConfig.defaults(), clock)) {
      String realConfig = CONFIG.formatted(base(realHooks));
      String embeddedConfig = CONFIG.formatted(base(embeddedHooks));
      try (LocalAlertmanager real =
              LocalAlertmanager.start(binary, Loopback.freePort(), realConfig, dir, false, clock);
          RealTimeAlertmanager embedded =
              RealTimeAlertmanager.start(
                  AlertmanagerConfig.parse("alertmanager.yml", embeddedConfig),
                  clock,
                  new HttpSender(),
                  "http://127.0.0.1:9093",
                  events::add);
          ApiServer api = ApiServer.start(embedded, HostPort.loopbackAnyPort())) {
        List<URI> both = List.of(real.url(), api.url());
        for (URI alertmanager : both) {
          // A first request sets up the client; the timed posts then take milliseconds.
          assertThat(
                  http.send(
                          HttpRequest.newBuilder(alertmanager.resolve("/-/ready")).build(),
                          HttpResponse.BodyHandlers.ofString())
                      .statusCode())
              .isEqualTo(200);
        }
        Instant t0 = clock.now().truncatedTo(ChronoUnit.MILLIS);
        Instant far = t0.plus(Duration.ofHours(1));

        post(
            both,
            alert("PaymentsErrors", "payments", "a", "page", t0, far),
            alert("PaymentsErrors", "payments", "b", "page", t0, far),
            alert("CheckoutLatency", "checkout", "a", "ticket", t0, far),
            alert("Stray", "", "a", "ticket", t0, far));
        at(t0, Duration.ofMillis(500));
        // Started a minute ago: its new group flushes at once, not after group_wait.
        post(
            both, alert("OldOne", "checkout", "z", "ticket", t0.minus(Duration.ofMinutes(1)), far));
        at(t0, Duration.ofSeconds(2));
        post(
            both,
            alert(
                "PaymentsErrors",
                "payments",
                "c",
                "page",
                clock.now().truncatedTo(ChronoUnit.MILLIS),
                far));
        assertThat(alerts(api.url())).isEqualTo(alerts(real.url()));
        at(t0, Duration.ofSeconds(4));
        Instant resolvedAt = clock.now().truncatedTo(ChronoUnit.MILLIS);
        post(
            both,
            alert("PaymentsErrors", "payments", "a", "page", t0, resolvedAt),
            alert("CheckoutLatency", "checkout", "a", "ticket", t0, resolvedAt));
        at(t0, OBSERVED);

        List<Notification> fromReal = realHooks.notifications();
        List<Notification> fromEmbedded = embeddedHooks.notifications();
        String timeline = timeline("real", t0, fromReal) + timeline("embedded", t0, fromEmbedded);
        assertThat(realHooks.rejections()).isEmpty();
        assertThat(embeddedHooks.rejections()).isEmpty();
        assertThat(events).isEmpty();
        // The scenario exercises what it claims to: grouping, continue, resolved, repeat, at-once
        // flushes.
        assertThat(fromReal)
            .extracting(n -> n.message().receiver())
            .contains("pager", "team-payments", "team-checkout", "unrouted");
        assertThat(fromReal).anyMatch(n -> n.message().status().equals("resolved"));
        assertThat(fromReal.size()).isGreaterThanOrEqualTo(12);

        Map<String, List<Notification>> realByGroup = byGroup(fromReal);
        Map<String, List<Notification>> embeddedByGroup = byGroup(fromEmbedded);
        assertThat(embeddedByGroup.keySet()).as(timeline).isEqualTo(realByGroup.keySet());
        for (String group : realByGroup.keySet()) {
          List<Notification> expected = realByGroup.get(group);
          List<Notification> actual = embeddedByGroup.get(group);
          assertThat(actual.stream().map(AlertmanagerDifferentialTest::content).toList())
              .as("the notifications of %s\n%s", group, timeline)
              .isEqualTo(expected.stream().map(AlertmanagerDifferentialTest::content).toList());
          for (int i = 0; i < expected.size(); i++) {
            Duration apart =
                Duration.between(expected.get(i).receivedAt(), actual.get(i).receivedAt()).abs();
            assertThat(apart)
                .as(
                    "notification %d of %s: real at %s, embedded at %s",
                    i, group, expected.get(i).receivedAt(), actual.get(i).receivedAt())
                .isLessThanOrEqualTo(TOLERANCE);
          }
        }
      }
    } finally {
      TempDirs.delete(dir);
    }
  }

  private static String base(WebhookReceiver receiver) {
    return "http://" + HostPort.format(receiver.address());
  }

  /** Waits on the clock until {@code offset} after {@code t0}. */
  private void at(Instant t0, Duration offset) throws InterruptedException {
    clock.sleep(Duration.between(clock.now(), t0.plus(offset)));
  }

  private static Map<String, Object> alert(
      String name,
      String team,
      String instance,
      String severity,
      Instant startsAt,
      Instant endsAt) {
    Map<String, String> labels =
        new TreeMap<>(
            Map.of(
                "alertname",
                name,
                "instance",
                instance,
                "severity",
                severity,
                "service",
                team.isEmpty() ? "none" : team));
    if (!team.isEmpty()) {
      labels.put("team", team);
    }
    Map<String, Object> alert = new LinkedHashMap<>();
    alert.put("labels", labels);
    alert.put("annotations", Map.of("summary", name + " on " + instance));
    alert.put("startsAt", startsAt.toString());
    alert.put("endsAt", endsAt.toString());
    alert.put("generatorURL", "http://127.0.0.1:9090/graph?g0.expr=up");
    return alert;
  }

  /** Posts to both at once, so neither gets the alerts a request's time later than the other. */
  @SafeVarargs
  private void post(List<URI> alertmanagers, Map<String, Object>... alerts) throws Exception {
    byte[] body = JSON.writeValueAsBytes(List.of(alerts));
    List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
    for (URI alertmanager : alertmanagers) {
      responses.add(
          http.sendAsync(
              HttpRequest.newBuilder(alertmanager.resolve("/api/v2/alerts"))
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString()));
    }
    for (int i = 0; i < responses.size(); i++) {
      HttpResponse<String> response = responses.get(i).get(10, TimeUnit.SECONDS);
      assertThat(response.statusCode())
          .as("POST to %s: %s", alertmanagers.get(i), response.body())
          .isEqualTo(200);
    }
  }

  /**
   * What both APIs must agree on: everything but updatedAt, which is each one's own arrival time.
   */
  private List<JsonNode> alerts(URI alertmanager) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(alertmanager.resolve("/api/v2/alerts")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    List<JsonNode> alerts = new ArrayList<>();
    JSON.readTree(response.body())
        .forEach(
            alert -> {
              ((com.fasterxml.jackson.databind.node.ObjectNode) alert).remove("updatedAt");
              alerts.add(alert);
            });
    return alerts;
  }

  private static Map<String, List<Notification>> byGroup(List<Notification> notifications) {
    Map<String, List<Notification>> groups = new TreeMap<>();
    notifications.forEach(
        n ->
            groups
                .computeIfAbsent(
                    n.message().receiver() + " " + n.message().groupKey(), k -> new ArrayList<>())
                .add(n));
    return groups;
  }

  private static String timeline(String side, Instant t0, List<Notification> notifications) {
    StringBuilder text = new StringBuilder();
    notifications.forEach(
        n ->
            text.append(side)
                .append(" +")
                .append(Duration.between(t0, n.receivedAt()).toMillis())
                .append("ms ")
                .append(n.message().receiver())
                .append(' ')
                .append(n.message().groupKey())
                .append(' ')
                .append(n.message().status())
                .append('\n'));
    return text.toString();
  }

  /** A notification without its arrival time. */
  private static String content(Notification notification) {
    WebhookMessage n = notification.message();
    StringBuilder text =
        new StringBuilder(n.status())
            .append(' ')
            .append(n.groupLabels())
            .append(" truncated=")
            .append(n.truncatedAlerts());
    for (WebhookMessage.Alert a : n.alerts()) {
      text.append("\n  ")
          .append(a.status())
          .append(' ')
          .append(a.labels())
          .append(' ')
          .append(a.annotations())
          .append(" starts ")
          .append(a.startsAt())
          .append(" ends ")
          .append(a.endsAt().map(Instant::toString).orElse("-"))
          .append(' ')
          .append(a.fingerprint());
    }
    return text.toString();
  }
}
