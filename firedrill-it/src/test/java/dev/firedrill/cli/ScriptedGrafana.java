package dev.firedrill.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.prometheus.QueryResult;
import dev.firedrill.testing.Results;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A Grafana on WireMock, in the shapes of Grafana's HTTP API, with Grafana-managed rules whose
 * state this class evaluates against a real Prometheus, as Grafana's scheduler would: every {@link
 * #evaluate()} runs each rule's PromQL on the data source, moves its one instance Normal → Pending
 * → Alerting (after the rule's {@code for}) → Normal, serves what Grafana would then answer on its
 * Prometheus-compatible API and its Alertmanager, and on Alerting posts the contact point's webhook
 * (version "1") to firedrill's receiver. Every stub wants the service-account token.
 *
 * <p>Endpoints: the data-source proxy {@code /api/datasources/proxy/uid/prom/...} forwarding to the
 * real Prometheus; {@code /api/prometheus/grafana/api/v1/rules} and {@code /alerts}; {@code
 * /api/v1/provisioning/alert-rules} and {@code /policies}; {@code
 * /api/alertmanager/grafana/api/v2/alerts} and {@code /status}; {@code POST /api/annotations}.
 */
final class ScriptedGrafana {

  /** A rule: its query {@code expr}, reduced (last) and thresholded ({@code > threshold}). */
  record RuleSpec(String title, String uid, String expr, double threshold) {}

  /** A rule and where its instance stands. */
  private static final class Scripted {
    final RuleSpec spec;
    final List<String> transitions = new CopyOnWriteArrayList<>();
    volatile String state = "Normal";
    volatile Instant activeAt;
    volatile Optional<Instant> alertingAt = Optional.empty();

    Scripted(RuleSpec spec, Instant since) {
      this.spec = spec;
      this.activeAt = since;
    }
  }

  static final String CONTACT_POINT = "firedrill webhook";
  static final String RUNBOOK = "https://runbooks.example.com/checkout-errors";
  static final Duration FOR = Duration.ofSeconds(2);
  static final String PROXY = "/api/datasources/proxy/uid/prom";
  private static final String PROM_API = "/api/prometheus/grafana/api/v1";
  private static final String AM_API = "/api/alertmanager/grafana/api/v2";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final WireMockServer server;
  private final String token;
  private final List<Scripted> rules;
  private final HttpPrometheusClient datasource;
  private final URI receiver;
  private final Clock clock = Clock.system();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /**
   * {@code rules} query the data source {@code prom}, which is {@code prometheus}; {@code receiver}
   * is the contact point's webhook URL.
   */
  ScriptedGrafana(
      WireMockServer server, String token, URI prometheus, URI receiver, RuleSpec... rules) {
    this.server = server;
    this.token = token;
    this.receiver = receiver;
    this.datasource = new HttpPrometheusClient(prometheus, Duration.ofSeconds(2), Optional.empty());
    Instant since = clock.now().minus(Duration.ofHours(1));
    this.rules = Arrays.stream(rules).map(r -> new Scripted(r, since)).toList();
    stub(
        any(urlPathMatching(PROXY + "/.*")),
        aResponse().proxiedFrom(prometheus.toString()).withProxyUrlPrefixToRemove(PROXY));
    stub(get(urlPathEqualTo("/api/v1/provisioning/alert-rules")), okJson(provisioned()));
    stub(get(urlPathEqualTo("/api/v1/provisioning/policies")), okJson(policies().toString()));
    ObjectNode status = JSON.createObjectNode();
    status.putObject("cluster").put("status", "disabled").putArray("peers");
    ObjectNode config = status.putObject("config");
    config.set("route", policies());
    ArrayNode receivers = config.putArray("receivers");
    receivers.addObject().put("name", "grafana-default-email");
    receivers.addObject().put("name", CONTACT_POINT);
    stub(get(urlEqualTo(AM_API + "/status")), okJson(status.toString()));
    stub(
        post(urlEqualTo("/api/annotations")),
        okJson("{\"id\":1,\"message\":\"Annotation added\"}"));
    stub(
        any(urlPathMatching("/api/annotations/1")), okJson("{\"message\":\"Annotation patched\"}"));
    serve();
  }

  private Scripted rule(String title) {
    return rules.stream().filter(r -> r.spec.title().equals(title)).findFirst().orElseThrow();
  }

  /** The state changes of rule {@code title}, as {@code Pending at ...}, in order. */
  List<String> transitions(String title) {
    return List.copyOf(rule(title).transitions);
  }

  /** When rule {@code title}'s instance last went Alerting, once it did. */
  Optional<Instant> alertingAt(String title) {
    return rule(title).alertingAt;
  }

  /** One evaluation of every rule, as Grafana's scheduler runs them every interval. */
  void evaluate() {
    rules.forEach(this::evaluate);
  }

  private void evaluate(Scripted rule) {
    Instant now = clock.now();
    boolean breached;
    try {
      QueryResult result = datasource.query(rule.spec.expr());
      breached = Results.value(result).orElse(0) > rule.spec.threshold();
    } catch (PrometheusException e) {
      // Grafana would go Error; the test wants Normal until the fault shows, so count it not so.
      breached = false;
    }
    String state = rule.state;
    String next =
        !breached
            ? "Normal"
            : state.equals("Normal")
                ? "Pending"
                : state.equals("Pending") && !now.isBefore(rule.activeAt.plus(FOR))
                    ? "Alerting"
                    : state;
    if (next.equals(state)) {
      return;
    }
    rule.state = next;
    rule.activeAt = now;
    rule.transitions.add(next + " at " + now);
    if (next.equals("Alerting")) {
      rule.alertingAt = Optional.of(now);
    }
    serve();
    if (next.equals("Alerting")) {
      notifyContactPoint(rule, now);
    }
  }

  private void stub(MappingBuilder request, ResponseDefinitionBuilder answer) {
    server.stubFor(
        request.withHeader("Authorization", equalTo("Bearer " + token)).willReturn(answer));
  }

  private static ObjectNode labels(ObjectNode into, Scripted rule) {
    into.put("alertname", rule.spec.title())
        .put("grafana_folder", "payments")
        .put("team", "payments");
    return into;
  }

  private static ObjectNode instance(Scripted rule) {
    ObjectNode alert = JSON.createObjectNode();
    labels(alert.putObject("labels"), rule);
    alert.putObject("annotations").put("runbook_url", RUNBOOK).put("summary", rule.spec.title());
    alert.put("state", rule.state);
    alert.put("activeAt", rule.activeAt.toString());
    alert.put("value", "");
    return alert;
  }

  /** What Grafana answers now on /rules, /alerts and its Alertmanager's /alerts. */
  private synchronized void serve() {
    ObjectNode rulesAnswer = JSON.createObjectNode().put("status", "success");
    ObjectNode group = rulesAnswer.putObject("data").putArray("groups").addObject();
    group.put("name", "checkout");
    group.put("file", "payments");
    group.put("folderUid", "payments-folder");
    ArrayNode ruleList = group.putArray("rules");
    group.put("interval", 1);
    group.put("lastEvaluation", clock.now().toString());
    group.put("evaluationTime", 0);
    ObjectNode alerts = JSON.createObjectNode().put("status", "success");
    ArrayNode instances = alerts.putObject("data").putArray("alerts");
    ArrayNode routed = JSON.createArrayNode();
    for (Scripted r : rules) {
      String state = r.state;
      ObjectNode rule = ruleList.addObject();
      rule.put("state", state.equals("Normal") ? "inactive" : state.toLowerCase());
      rule.put("name", r.spec.title());
      rule.put("uid", r.spec.uid());
      rule.put("folderUid", "payments-folder");
      rule.put("query", queries(r.spec).toString());
      rule.putArray("queriedDatasourceUIDs").add("prom");
      rule.put("duration", FOR.toSeconds());
      rule.putObject("annotations").put("runbook_url", RUNBOOK).put("summary", r.spec.title());
      rule.putObject("labels").put("team", "payments");
      rule.put("health", "ok");
      rule.put("type", "alerting");
      rule.put("lastEvaluation", clock.now().toString());
      rule.put("evaluationTime", 0.004);
      rule.putArray("alerts").add(instance(r));
      rule.putObject("totals").put(state.toLowerCase(), 1);
      instances.add(instance(r));
      if (state.equals("Alerting")) {
        ObjectNode a = routed.addObject();
        labels(a.putObject("labels"), r).put("__alert_rule_uid__", r.spec.uid());
        a.putObject("annotations").put("runbook_url", RUNBOOK).put("summary", r.spec.title());
        a.put("startsAt", r.activeAt.toString());
        a.put("endsAt", r.activeAt.plus(Duration.ofMinutes(4)).toString());
        a.put("updatedAt", r.activeAt.toString());
        a.put("generatorURL", generatorUrl(r.spec));
        a.put("fingerprint", fingerprint(r.spec));
        a.putArray("receivers").addObject().put("name", CONTACT_POINT);
        ObjectNode status = a.putObject("status").put("state", "active");
        status.putArray("silencedBy");
        status.putArray("inhibitedBy");
      }
    }
    stub(get(urlPathEqualTo(PROM_API + "/rules")), okJson(rulesAnswer.toString()));
    stub(get(urlPathEqualTo(PROM_API + "/alerts")), okJson(alerts.toString()));
    stub(get(urlPathEqualTo(AM_API + "/alerts")), okJson(routed.toString()));
  }

  private static String generatorUrl(RuleSpec rule) {
    return "http://grafana.example/alerting/grafana/" + rule.uid() + "/view?orgId=1";
  }

  private static String fingerprint(RuleSpec rule) {
    return String.format("%016x", rule.uid().hashCode() & 0xffffffffL);
  }

  /** The contact point's webhook, as Grafana sends it: version "1", the AM fields and its own. */
  private void notifyContactPoint(Scripted rule, Instant startsAt) {
    String title = rule.spec.title();
    ObjectNode body = JSON.createObjectNode();
    body.put("receiver", CONTACT_POINT);
    body.put("status", "firing");
    body.put("orgId", 1);
    ObjectNode alert = body.putArray("alerts").addObject();
    alert.put("status", "firing");
    labels(alert.putObject("labels"), rule);
    alert.putObject("annotations").put("runbook_url", RUNBOOK).put("summary", title);
    alert.put("startsAt", startsAt.toString());
    alert.put("endsAt", "0001-01-01T00:00:00Z");
    alert.put("generatorURL", generatorUrl(rule.spec));
    alert.put("fingerprint", fingerprint(rule.spec));
    alert.put("silenceURL", "http://grafana.example/alerting/silence/new?orgId=1");
    alert.put("dashboardURL", "");
    alert.put("panelURL", "");
    alert.putObject("values").put("B", 1.0).put("C", 1);
    alert.put("valueString", "[ var='B' labels={} value=1 ], [ var='C' labels={} value=1 ]");
    labels(body.putObject("groupLabels"), rule);
    labels(body.putObject("commonLabels"), rule);
    body.putObject("commonAnnotations").put("runbook_url", RUNBOOK);
    body.put("externalURL", "http://grafana.example/");
    body.put("version", "1");
    body.put("groupKey", "{}/{team=\"payments\"}:{alertname=\"" + title + "\"}");
    body.put("truncatedAlerts", 0);
    body.put("title", "[FIRING:1] " + title + " payments (payments)");
    body.put("state", "alerting");
    body.put("message", "**Firing**\n\nValue: B=1, C=1\n");
    try {
      HttpResponse<String> answer =
          http.send(
              HttpRequest.newBuilder(receiver)
                  .timeout(Duration.ofSeconds(2))
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      rule.transitions.add("webhook answered " + answer.statusCode());
    } catch (IOException e) {
      rule.transitions.add("webhook failed: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The rule's queries as Grafana stores them: A on prom, B reduce last, C threshold. */
  private static ArrayNode queries(RuleSpec rule) {
    ArrayNode data = JSON.createArrayNode();
    ObjectNode a = data.addObject();
    a.put("refId", "A").put("queryType", "").put("datasourceUid", "prom");
    a.putObject("relativeTimeRange").put("from", 600).put("to", 0);
    a.putObject("model").put("expr", rule.expr()).put("instant", true).put("refId", "A");
    ObjectNode b = data.addObject();
    b.put("refId", "B").put("datasourceUid", "__expr__");
    b.putObject("model")
        .put("expression", "A")
        .put("reducer", "last")
        .put("refId", "B")
        .put("type", "reduce");
    ObjectNode c = data.addObject();
    c.put("refId", "C").put("datasourceUid", "__expr__");
    ObjectNode model = c.putObject("model");
    model
        .putArray("conditions")
        .addObject()
        .putObject("evaluator")
        .put("type", "gt")
        .putArray("params")
        .add(rule.threshold());
    model.put("expression", "B").put("refId", "C").put("type", "threshold");
    return data;
  }

  /** {@code GET /api/v1/provisioning/alert-rules}: the rules' details. */
  private String provisioned() {
    ArrayNode list = JSON.createArrayNode();
    for (Scripted r : rules) {
      ObjectNode rule = list.addObject();
      rule.put("id", list.size());
      rule.put("uid", r.spec.uid());
      rule.put("orgID", 1);
      rule.put("folderUID", "payments-folder");
      rule.put("ruleGroup", "checkout");
      rule.put("title", r.spec.title());
      rule.put("condition", "C");
      rule.set("data", queries(r.spec));
      rule.put("updated", "2026-12-01T09:00:00Z");
      rule.put("noDataState", "NoData");
      rule.put("execErrState", "Error");
      rule.put("for", FOR.toSeconds() + "s");
      rule.putObject("annotations").put("runbook_url", RUNBOOK).put("summary", r.spec.title());
      rule.putObject("labels").put("team", "payments");
      rule.put("provenance", "");
      rule.put("isPaused", false);
    }
    return list.toString();
  }

  /** The notification policies: team = payments goes to the contact point. */
  private static ObjectNode policies() {
    ObjectNode root = JSON.createObjectNode();
    root.put("receiver", "grafana-default-email");
    root.putArray("group_by").add("grafana_folder").add("alertname");
    ObjectNode payments = root.putArray("routes").addObject();
    payments.put("receiver", CONTACT_POINT);
    ArrayNode matcher = payments.putArray("object_matchers").addArray();
    matcher.add("team").add("=").add("payments");
    payments.put("group_wait", "0s");
    payments.put("provenance", "api");
    return root;
  }
}
