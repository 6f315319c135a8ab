package dev.firedrill.alerting;

import dev.firedrill.alerting.receiver.Notification;
import dev.firedrill.alerting.receiver.WebhookReceiver;
import dev.firedrill.alerting.webhook.WebhookMessage;
import dev.firedrill.prometheus.GrafanaRuleDetails;
import dev.firedrill.prometheus.PrometheusAlert;
import dev.firedrill.prometheus.PrometheusAlertsApi;
import dev.firedrill.prometheus.PrometheusConfig;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.prometheus.Rule;
import dev.firedrill.prometheus.RuleGroup;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The real stack behind {@link AlertStack}: Prometheus's API, Alertmanager's, firedrill's own
 * receiver.
 */
public final class LiveAlertStack implements AlertStack {

  private static final Duration LINK_TIMEOUT = Duration.ofSeconds(5);

  /** What the fallback intervals are called when the server publishes no configuration. */
  static final String FROM_EXPERIMENT =
      "from the experiment file, the server has no /api/v1/status/config";

  static final String FROM_SERVER = "from the server's /api/v1/status/config";

  private final PrometheusAlertsApi prometheus;
  private final PrometheusAlertsApi rulesSource;
  private final PrometheusConfig fallback;
  private final Optional<AlertmanagerClient> alertmanager;
  private final Optional<WebhookReceiver> receiver;

  /** Grafana's rule details by title, read with the rules; empty for any other server. */
  private volatile Map<String, GrafanaRuleDetails> grafanaRules = Map.of();

  private final HttpClient links =
      HttpClient.newBuilder()
          .connectTimeout(LINK_TIMEOUT)
          .followRedirects(HttpClient.Redirect.NORMAL)
          .build();

  /**
   * Rules, alerts and config from one Prometheus; Prometheus's default intervals when it has no
   * config.
   */
  public LiveAlertStack(
      PrometheusAlertsApi prometheus,
      Optional<AlertmanagerClient> alertmanager,
      Optional<WebhookReceiver> receiver) {
    this(prometheus, prometheus, PrometheusConfig.DEFAULTS, alertmanager, receiver);
  }

  /**
   * {@code rulesSource}: where the rules and alerts are read ({@code prometheus} itself, or
   * vmalert, Thanos Ruler, a Mimir ruler); {@code fallback}: the intervals when {@code prometheus}
   * has no usable {@code /api/v1/status/config} (Thanos Query, Mimir, VictoriaMetrics, AMP).
   */
  public LiveAlertStack(
      PrometheusAlertsApi prometheus,
      PrometheusAlertsApi rulesSource,
      PrometheusConfig fallback,
      Optional<AlertmanagerClient> alertmanager,
      Optional<WebhookReceiver> receiver) {
    this.prometheus = prometheus;
    this.rulesSource = rulesSource;
    this.fallback = fallback;
    this.alertmanager = alertmanager;
    this.receiver = receiver;
  }

  @Override
  public RuleBook rules() throws AlertStackException {
    List<RuleGroup> groups;
    try {
      groups = rulesSource.rules();
    } catch (PrometheusException | RuntimeException e) {
      throw new AlertStackException(e.getMessage(), e);
    }
    List<RuleBook.AlertRule> alerting = new ArrayList<>();
    Map<String, String> recording = new LinkedHashMap<>();
    for (RuleGroup group : groups) {
      for (Rule rule : group.rules()) {
        if (rule instanceof Rule.Alerting alert) {
          alerting.add(
              new RuleBook.AlertRule(
                  alert.name(),
                  alert.query(),
                  alert.duration(),
                  group.interval(),
                  alert.labels(),
                  alert.annotations(),
                  alert.uid()));
        } else if (rule instanceof Rule.Recording record) {
          recording.putIfAbsent(record.name(), record.query());
        }
      }
    }
    Optional<String> noRules =
        groups.isEmpty()
            ? Optional.of(
                "GET /api/v1/rules answered no rule group at all; "
                    + rulesSource
                        .whyNoRules()
                        .orElse(
                            "the server evaluates no rules, or they are evaluated elsewhere: set prometheus.rules_url to that"
                                + " rules source (vmalert, Thanos Ruler, a Mimir ruler)"))
            : Optional.empty();
    Intervals intervals = intervals();
    return new RuleBook(
        alerting,
        recording,
        intervals.config().scrapeInterval(),
        intervals.config().evaluationInterval(),
        intervals.config().queryOffset(),
        intervals.source() + grafanaDetails().map(note -> "; " + note).orElse(""),
        noRules);
  }

  /**
   * Reads Grafana's rule details, when the rules source is Grafana, and says in one line where the
   * no-data and error states come from. A token without the provisioning API's permission is no
   * failure: instance states are then read as Grafana writes them.
   */
  private Optional<String> grafanaDetails() {
    Optional<List<GrafanaRuleDetails>> details;
    try {
      details = rulesSource.grafanaRuleDetails();
    } catch (PrometheusException | RuntimeException e) {
      grafanaRules = Map.of();
      return Optional.of(
          "Grafana's no-data and error states as its instances show them (" + e.getMessage() + ")");
    }
    if (details.isEmpty()) {
      return Optional.empty();
    }
    Map<String, GrafanaRuleDetails> byTitle = new LinkedHashMap<>();
    details.get().forEach(rule -> byTitle.putIfAbsent(rule.title(), rule));
    grafanaRules = Map.copyOf(byTitle);
    return Optional.of(
        "Grafana's no-data and error states from /api/v1/provisioning/alert-rules ("
            + byTitle.size()
            + (byTitle.size() == 1 ? " rule)" : " rules)"));
  }

  private record Intervals(PrometheusConfig config, String source) {}

  /**
   * The server's configuration when it publishes one; the experiment's intervals when it answers
   * 404, 501, another error or an empty YAML, as Prometheus-API backends do. Never a failure: a
   * drill must not end not-run for an endpoint those backends do not have.
   */
  private Intervals intervals() {
    String yaml;
    try {
      yaml = prometheus.config();
    } catch (PrometheusException | RuntimeException e) {
      return new Intervals(fallback, FROM_EXPERIMENT + " (" + e.getMessage() + ")");
    }
    if (yaml == null || yaml.isBlank()) {
      return new Intervals(fallback, FROM_EXPERIMENT + " (it answered an empty yaml)");
    }
    try {
      PrometheusConfig config = PrometheusConfig.parse(yaml, fallback);
      return new Intervals(
          config, FROM_SERVER + fromExperiment(PrometheusConfig.parse(yaml), config));
    } catch (IllegalArgumentException e) {
      return new Intervals(
          fallback,
          "from the experiment file, the server's /api/v1/status/config cannot be read ("
              + e.getMessage()
              + ")");
    }
  }

  /**
   * Names the values the server's config left unstated and the experiment file set to something
   * other than Prometheus's default, so a reader sees which numbers the floor rests on.
   */
  private static String fromExperiment(PrometheusConfig withDefaults, PrometheusConfig used) {
    List<String> fields = new ArrayList<>();
    if (!withDefaults.scrapeInterval().equals(used.scrapeInterval())) {
      fields.add("scrape interval");
    }
    if (!withDefaults.evaluationInterval().equals(used.evaluationInterval())) {
      fields.add("evaluation interval");
    }
    if (!withDefaults.queryOffset().equals(used.queryOffset())) {
      fields.add("query offset");
    }
    return fields.isEmpty()
        ? ""
        : ", "
            + String.join(" and ", fields)
            + " from the experiment file (the server's config does not state "
            + (fields.size() == 1 ? "it" : "them")
            + ")";
  }

  @Override
  public List<PromAlert> alerts() throws AlertStackException {
    try {
      return rulesSource.alerts().stream()
          .map(a -> new PromAlert(a.labels(), a.annotations(), state(a), a.activeAt()))
          .toList();
    } catch (PrometheusException e) {
      throw new AlertStackException(e.getMessage(), e);
    }
  }

  /** The instance's state, a Grafana NoData or Error read through its rule's settings. */
  private String state(PrometheusAlert alert) {
    GrafanaRuleDetails rule = grafanaRules.get(alert.labels().getOrDefault("alertname", ""));
    return rule == null ? alert.state() : GrafanaStates.of(alert.state(), rule);
  }

  @Override
  public List<RoutedAlert> routed() throws AlertStackException {
    if (alertmanager.isEmpty()) {
      return List.of();
    }
    try {
      return alertmanager.get().alerts().stream()
          .map(
              a ->
                  new RoutedAlert(
                      a.labels(), a.annotations(), a.startsAt(), a.fingerprint(), a.receivers()))
          .toList();
    } catch (AlertmanagerException e) {
      throw new AlertStackException(e.getMessage(), e);
    }
  }

  @Override
  public List<Delivery> deliveries() {
    List<Delivery> deliveries = new ArrayList<>();
    for (Notification notification :
        receiver.map(WebhookReceiver::notifications).orElse(List.of())) {
      WebhookMessage message = notification.message();
      for (WebhookMessage.Alert alert : message.alerts()) {
        deliveries.add(
            new Delivery(
                notification.receivedAt(),
                message.receiver(),
                alert.status(),
                alert.labels(),
                alert.annotations(),
                alert.startsAt(),
                alert.fingerprint()));
      }
    }
    return deliveries;
  }

  @Override
  public List<Truncation> truncations() {
    return receiver.map(WebhookReceiver::notifications).orElse(List.of()).stream()
        .filter(n -> n.message().truncatedAlerts() > 0)
        .map(
            n ->
                new Truncation(
                    n.receivedAt(),
                    n.message().receiver(),
                    n.message().groupKey(),
                    n.message().truncatedAlerts()))
        .toList();
  }

  @Override
  public Optional<Integer> linkStatus(String url) {
    try {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(url)).timeout(LINK_TIMEOUT).GET().build();
      // Only the status counts: the body is closed unread, so that a page without end (or one
      // that trickles) cannot hold the detection; the request timeout covers the headers.
      HttpResponse<java.io.InputStream> response =
          links.send(request, HttpResponse.BodyHandlers.ofInputStream());
      try (java.io.InputStream unread = response.body()) {
        return Optional.of(response.statusCode());
      }
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
