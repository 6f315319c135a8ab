package dev.firedrill.alerting.grafana;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.firedrill.alerting.AlertNews;
import dev.firedrill.alerting.AlertState;
import dev.firedrill.alerting.Detection;
import dev.firedrill.alerting.DetectionRow;
import dev.firedrill.alerting.LiveAlertStack;
import dev.firedrill.alerting.receiver.ReceiverConfig;
import dev.firedrill.alerting.receiver.WebhookReceiver;
import dev.firedrill.experiment.AlertExpectation;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusConfig;
import dev.firedrill.time.VirtualClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Detection against Grafana-managed alerting: a WireMock Grafana answers its Prometheus-compatible
 * {@code /api/prometheus/grafana/api/v1/rules} and {@code /alerts} in Grafana's shapes (every
 * instance listed, Normal included; capitalised states; {@code activeAt} the start of the current
 * state; the rule's queries as a JSON array), the test drives one rule Normal → Pending → Alerting,
 * and a contact-point webhook (version "1") reaches firedrill's receiver.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GrafanaManagedDetectionTest {

  @RegisterExtension
  static final WireMockExtension grafana =
      WireMockExtension.newInstance()
          .options(wireMockConfig().bindAddress("127.0.0.1").dynamicPort())
          .build();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOKEN = "glsa_grafana-service-account-s3cr3t";
  private static final String FIRING_RULE = "Checkout error ratio high";
  private static final String QUIET_RULE = "Checkout latency high";
  private static final String RUNBOOK = "https://runbooks.example.com/checkout-errors";
  private static final String CONTACT_POINT = "firedrill webhook";
  private static final Instant INJECTED = Instant.parse("2024-05-14T07:09:30Z");
  private static final Instant PENDING_AT = INJECTED.plusSeconds(30);
  // Pending for the rule's for (2m), then Alerting: Grafana's activeAt restarts at the transition.
  private static final Instant ALERTING_AT = PENDING_AT.plus(Duration.ofMinutes(2));
  private static final String RULES = "/api/prometheus/grafana/api/v1/rules";
  private static final String ALERTS = "/api/prometheus/grafana/api/v1/alerts";

  private final VirtualClock clock = VirtualClock.at("2024-05-14T07:12:12.157076Z");
  private final List<WebhookReceiver> receivers = new ArrayList<>();

  @AfterEach
  void close() {
    receivers.forEach(WebhookReceiver::close);
  }

  private static ObjectNode instance(String rule, String state, Instant activeAt) {
    ObjectNode alert = JSON.createObjectNode();
    alert
        .putObject("labels")
        .put("alertname", rule)
        .put("grafana_folder", "payments")
        .put("team", "payments");
    alert.putObject("annotations").put("runbook_url", RUNBOOK).put("summary", rule);
    alert.put("state", state);
    alert.put("activeAt", activeAt.toString());
    alert.put("value", "");
    return alert;
  }

  /** Grafana's rule object, as its Prometheus-compatible API writes it. */
  private static ObjectNode rule(String title, String uid, String state, ObjectNode... alerts)
      throws Exception {
    ObjectNode rule = JSON.createObjectNode();
    rule.put("state", state);
    rule.put("name", title);
    rule.put("folderUid", "payments-folder");
    rule.put("uid", uid);
    rule.put("query", GRAFANA_QUERY);
    rule.putArray("queriedDatasourceUIDs").add("prom");
    rule.put("duration", 120);
    rule.putObject("annotations").put("runbook_url", RUNBOOK).put("summary", title);
    rule.putObject("labels").put("team", "payments");
    rule.put("health", "ok");
    rule.put("type", "alerting");
    rule.put("lastEvaluation", "2024-05-14T07:12:00Z");
    rule.put("evaluationTime", 0.0041);
    ArrayNode list = rule.putArray("alerts");
    for (ObjectNode a : alerts) {
      list.add(a);
    }
    rule.putObject("totals").put("normal", alerts.length);
    return rule;
  }

  private static final String GRAFANA_QUERY =
      "[{\"refId\":\"A\",\"queryType\":\"\",\"relativeTimeRange\":{\"from\":600,\"to\":0},"
          + "\"datasourceUid\":\"prom\",\"model\":{\"expr\":"
          + "\"sum(rate(http_server_requests_total{code=~\\\"5..\\\"}[1m])) /"
          + " sum(rate(http_server_requests_total[1m]))\",\"instant\":true,\"refId\":\"A\"}},"
          + "{\"refId\":\"B\",\"datasourceUid\":\"__expr__\",\"model\":{\"expression\":\"A\","
          + "\"reducer\":\"last\",\"refId\":\"B\",\"type\":\"reduce\"}},"
          + "{\"refId\":\"C\",\"datasourceUid\":\"__expr__\",\"model\":{\"conditions\":"
          + "[{\"evaluator\":{\"params\":[0.05],\"type\":\"gt\"}}],\"expression\":\"B\","
          + "\"refId\":\"C\",\"type\":\"threshold\"}}]";

  private void serve(String firingState, Instant firingSince) throws Exception {
    ObjectNode firing = instance(FIRING_RULE, firingState, firingSince);
    ObjectNode quiet = instance(QUIET_RULE, "Normal", INJECTED.minusSeconds(3600));
    ObjectNode group = JSON.createObjectNode();
    group.put("name", "checkout");
    group.put("file", "payments");
    group.put("folderUid", "payments-folder");
    group
        .putArray("rules")
        .add(rule(FIRING_RULE, "ddlo0d8rv3ocgd", firingState.toLowerCase(), firing))
        .add(rule(QUIET_RULE, "bdlo0e1tq8hs0a", "inactive", quiet));
    group.put("interval", 60);
    group.put("lastEvaluation", "2024-05-14T07:12:00Z");
    group.put("evaluationTime", 0);
    ObjectNode rules = JSON.createObjectNode().put("status", "success");
    rules.putObject("data").putArray("groups").add(group);
    ObjectNode alerts = JSON.createObjectNode().put("status", "success");
    alerts.putObject("data").putArray("alerts").add(firing).add(quiet);
    grafana.stubFor(get(urlEqualTo(RULES)).willReturn(okJson(rules.toString())));
    grafana.stubFor(get(urlEqualTo(ALERTS)).willReturn(okJson(alerts.toString())));
    // Grafana's Prometheus-compatible API has no status/config: floors use the experiment's.
    grafana.stubFor(
        get(urlPathMatching("/api/prometheus/grafana/api/v1/status/config"))
            .willReturn(
                com.github.tomakehurst.wiremock.client.WireMock.notFound()
                    .withBody("{\"message\":\"Not found\"}")));
  }

  private static AlertExpectation expect(String rule) {
    return new AlertExpectation(
        rule,
        Map.of("team", "payments"),
        AlertExpectation.Expect.FIRING,
        Duration.ofMinutes(5),
        Optional.of(CONTACT_POINT),
        Optional.of(RUNBOOK),
        Optional.empty(),
        false);
  }

  private static final class Heard implements AlertNews {
    final List<String> lines = new ArrayList<>();

    @Override
    public void state(
        String alert, AlertState state, Optional<AlertState> previous, Optional<Instant> at) {
      lines.add(alert + " " + state.text() + " " + at.map(Instant::toString).orElse("-"));
    }

    @Override
    public void routed(String alert, Instant startsAt, List<String> receivers) {
      lines.add(alert + " routed " + receivers);
    }

    @Override
    public void notified(String alert, String receiver, Instant receivedAt, Instant startsAt) {
      lines.add(alert + " notified " + receiver);
    }
  }

  @Test
  void normalPendingAlertingThenTheContactPointWebhookGiveTimeToDetectAndToNotify()
      throws Exception {
    WebhookReceiver receiver = WebhookReceiver.start(ReceiverConfig.defaults(), clock);
    receivers.add(receiver);
    HttpPrometheusClient api =
        new HttpPrometheusClient(
            URI.create("http://127.0.0.1:" + grafana.getPort() + "/api/prometheus/grafana"),
            Duration.ofSeconds(5),
            Optional.of(TOKEN));
    LiveAlertStack stack =
        new LiveAlertStack(
            api,
            api,
            new PrometheusConfig(
                Duration.ofSeconds(15), Duration.ofSeconds(60), Duration.ZERO, Map.of()),
            Optional.empty(),
            Optional.of(receiver));
    Detection detection =
        new Detection(List.of(expect(FIRING_RULE), expect(QUIET_RULE)), stack, true, false);
    Heard heard = new Heard();

    // Every instance is Normal: Grafana lists them all, none is already active.
    serve("Normal", INJECTED.minusSeconds(3600));
    assertThat(detection.preflight()).isEmpty();
    detection.poll(heard);
    assertThat(heard.lines).isEmpty();

    serve("Pending", PENDING_AT);
    detection.poll(heard);
    serve("Alerting", ALERTING_AT);
    detection.poll(heard);
    HttpResponse<String> posted =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(receiver.url())
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            Files.readString(Path.of("fixtures/alerting/webhook-grafana-v1.json"))))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(posted.statusCode()).isEqualTo(200);
    detection.poll(heard);

    String firing = FIRING_RULE + "{team=\"payments\"}";
    assertThat(heard.lines)
        .containsExactly(
            firing + " pending " + PENDING_AT,
            firing + " firing " + ALERTING_AT,
            firing + " notified " + CONTACT_POINT);

    List<DetectionRow> rows = detection.rows(INJECTED);
    DetectionRow row = rows.get(0);
    assertThat(row.fired()).isTrue();
    // The webhook's startsAt (07:12:00.157076Z) is the evaluation that fired the rule: 150.157s.
    assertThat(row.timeToDetect()).contains(Duration.ofMillis(150_157).plusNanos(76_000));
    assertThat(row.detectSource()).isEqualTo("webhook startsAt");
    assertThat(row.timeToNotify()).contains(Duration.ofSeconds(12));
    assertThat(row.receivers()).containsExactly(CONTACT_POINT);
    assertThat(row.receiver().status()).isEqualTo(DetectionRow.Check.Status.RIGHT);
    assertThat(row.runbook().status()).isEqualTo(DetectionRow.Check.Status.RIGHT);
    assertThat(row.floor().orElseThrow().value()).isEqualTo(Duration.ofSeconds(123));
    assertThat(row.held()).isTrue();

    DetectionRow quiet = rows.get(1);
    assertThat(quiet.fired()).isFalse();
    assertThat(quiet.held()).isFalse();
    assertThat(quiet.reason())
        .startsWith("missed: did not fire within 5m; its floor is 123.0s")
        .doesNotContain(TOKEN);

    grafana.verify(
        getRequestedFor(urlEqualTo(ALERTS))
            .withHeader("Authorization", equalTo("Bearer " + TOKEN)));
    assertThat(grafana.findAll(anyRequestedFor(urlPathMatching(".*")))).isNotEmpty();
  }

  @Test
  void withoutTheWebhookGrafanasActiveAtIsTheFiringTimeWithoutASecondFor() throws Exception {
    HttpPrometheusClient api =
        new HttpPrometheusClient(
            URI.create("http://127.0.0.1:" + grafana.getPort() + "/api/prometheus/grafana"),
            Duration.ofSeconds(5),
            Optional.of(TOKEN));
    LiveAlertStack stack = new LiveAlertStack(api, Optional.empty(), Optional.empty());
    Detection detection = new Detection(List.of(expect(FIRING_RULE)), stack, false, false);

    serve("Normal (MissingSeries)", INJECTED.minusSeconds(60));
    assertThat(detection.preflight()).isEmpty();
    serve("Alerting", ALERTING_AT);
    detection.poll(new Heard());

    DetectionRow row = detection.rows(INJECTED).get(0);
    assertThat(row.detectSource()).isEqualTo("Grafana activeAt");
    assertThat(row.timeToDetect()).contains(Duration.ofSeconds(150));
  }

  @Test
  void anInstanceAlreadyAlertingStopsTheDrillBeforeInjection() throws Exception {
    HttpPrometheusClient api =
        new HttpPrometheusClient(
            URI.create("http://127.0.0.1:" + grafana.getPort() + "/api/prometheus/grafana"),
            Duration.ofSeconds(5),
            Optional.of(TOKEN));
    Detection detection =
        new Detection(
            List.of(expect(FIRING_RULE)),
            new LiveAlertStack(api, Optional.empty(), Optional.empty()),
            false,
            false);

    serve("Alerting (Error)", INJECTED.minusSeconds(60));

    assertThat(detection.preflight().orElseThrow().reason())
        .isEqualTo(
            FIRING_RULE
                + "{team=\"payments\"} is already Alerting (Error), so its time to detect would"
                + " mean nothing; nothing was injected");
  }

  @Test
  void aRuleNamedByItsUidIsWatchedByItsTitleAndAMisspelledTitleGetsTheNearest() throws Exception {
    HttpPrometheusClient api =
        new HttpPrometheusClient(
            URI.create("http://127.0.0.1:" + grafana.getPort() + "/api/prometheus/grafana"),
            Duration.ofSeconds(5),
            Optional.of(TOKEN));
    LiveAlertStack stack = new LiveAlertStack(api, Optional.empty(), Optional.empty());
    Detection byUid = new Detection(List.of(expect("ddlo0d8rv3ocgd")), stack, false, false);

    serve("Normal", INJECTED.minusSeconds(60));
    assertThat(byUid.preflight()).isEmpty();
    serve("Alerting", ALERTING_AT);
    byUid.poll(new Heard());
    DetectionRow row = byUid.rows(INJECTED).get(0);
    assertThat(row.expectation().alert()).isEqualTo(FIRING_RULE);
    assertThat(row.fired()).isTrue();
    assertThat(row.timeToDetect()).contains(Duration.ofSeconds(150));

    Detection misspelled =
        new Detection(List.of(expect("Checkout eror ratio high")), stack, false, false);
    assertThat(misspelled.preflight().orElseThrow().reason())
        .isEqualTo(
            "hypothesis.alerts names Checkout eror ratio high, which no alerting rule of"
                + " Prometheus defines (did you mean \"Checkout error ratio high\"?)");
  }

  private static String provisioned(String noDataState) {
    return "[{\"id\":7,\"uid\":\"ddlo0d8rv3ocgd\",\"orgID\":1,\"folderUID\":\"payments-folder\","
        + "\"ruleGroup\":\"checkout\",\"title\":\""
        + FIRING_RULE
        + "\",\"condition\":\"C\",\"data\":[],\"noDataState\":\""
        + noDataState
        + "\",\"execErrState\":\"Error\",\"for\":\"2m\",\"labels\":{\"team\":\"payments\"}}]";
  }

  @Test
  void aNoDataInstanceFiresWhenTheProvisioningApiSaysTheRuleAlertsOnNoData() throws Exception {
    grafana.stubFor(
        get(urlEqualTo("/api/v1/provisioning/alert-rules"))
            .withHeader("Authorization", equalTo("Bearer " + TOKEN))
            .willReturn(okJson(provisioned("Alerting"))));
    HttpPrometheusClient api =
        new HttpPrometheusClient(
            URI.create("http://127.0.0.1:" + grafana.getPort() + "/api/prometheus/grafana"),
            Duration.ofSeconds(5),
            Optional.of(TOKEN));
    Detection detection =
        new Detection(
            List.of(expect(FIRING_RULE)),
            new LiveAlertStack(api, Optional.empty(), Optional.empty()),
            false,
            false);

    serve("Normal", INJECTED.minusSeconds(60));
    assertThat(detection.preflight()).isEmpty();
    assertThat(detection.intervals().orElseThrow())
        .endsWith(
            "; Grafana's no-data and error states from /api/v1/provisioning/alert-rules (1 rule)");
    serve("NoData", ALERTING_AT);
    detection.poll(new Heard());

    DetectionRow row = detection.rows(INJECTED).get(0);
    assertThat(row.fired()).isTrue();
    assertThat(row.timeToDetect()).contains(Duration.ofSeconds(150));
  }

  @Test
  void withoutTheProvisioningApisPermissionANoDataInstanceIsItsOwnStateAndSaidSo()
      throws Exception {
    grafana.stubFor(
        get(urlEqualTo("/api/v1/provisioning/alert-rules"))
            .willReturn(
                com.github.tomakehurst.wiremock.client.WireMock.aResponse()
                    .withStatus(403)
                    .withHeader("Content-Type", "application/json")
                    .withBody(
                        "{\"message\":\"You'll need additional permissions to perform this"
                            + " action. Permissions needed: alert.provisioning:read\"}")));
    HttpPrometheusClient api =
        new HttpPrometheusClient(
            URI.create("http://127.0.0.1:" + grafana.getPort() + "/api/prometheus/grafana"),
            Duration.ofSeconds(5),
            Optional.of(TOKEN));
    Detection detection =
        new Detection(
            List.of(expect(FIRING_RULE)),
            new LiveAlertStack(api, Optional.empty(), Optional.empty()),
            false,
            false);

    serve("NoData", INJECTED.minusSeconds(60));
    assertThat(detection.preflight()).isEmpty();
    assertThat(detection.intervals().orElseThrow())
        .contains(
            "; Grafana's no-data and error states as its instances show them (Grafana at"
                + " http://127.0.0.1:")
        .contains(
            " answered HTTP 403 to GET /api/v1/provisioning/alert-rules: {\"message\":\"You'll need"
                + " additional permissions")
        .doesNotContain(TOKEN);
    detection.poll(new Heard());
    assertThat(detection.rows(INJECTED).get(0).fired()).isFalse();
  }
}
