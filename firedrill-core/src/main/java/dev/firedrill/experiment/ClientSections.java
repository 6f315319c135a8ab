package dev.firedrill.experiment;

import static dev.firedrill.experiment.HttpSettingsReader.USE_CREDENTIAL_KEYS;

import dev.firedrill.http.HttpSettings;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The sections that name a service firedrill talks to: prometheus, alertmanager, receiver and
 * markers.
 */
final class ClientSections {

  private static final Pattern LISTEN =
      Pattern.compile("(localhost|\\d{1,3}(\\.\\d{1,3}){3}|\\[[0-9a-fA-F:]+\\]):\\d{1,5}");
  private static final Pattern DASHBOARD_UID = Pattern.compile("[A-Za-z0-9_-]{1,40}");

  private final Node.Context context;
  private final HttpSettingsReader settings;

  ClientSections(Node.Context context) {
    this.context = context;
    this.settings = new HttpSettingsReader(context);
  }

  PrometheusSource prometheus(Node section) {
    if (section == null) {
      return null;
    }
    settings.refuseSecrets(section, true, true);
    URI url =
        section
            .get("url")
            .required("expected the http or https URL of Prometheus, such as http://127.0.0.1:9090")
            .url("http://127.0.0.1:9090", USE_CREDENTIAL_KEYS);
    Duration timeout = section.get("timeout").timeout();
    HttpSettings http = settings.read(section, url, "PROM_TOKEN");
    Node rulesNode = section.get("rules_url");
    URI rulesUrl =
        rulesNode.present() ? rulesNode.url("http://127.0.0.1:8880", USE_CREDENTIAL_KEYS) : null;
    PrometheusSource.Intervals intervals =
        new PrometheusSource.Intervals(
            section.get("scrape_interval").duration(true),
            section.get("evaluation_interval").duration(true),
            section.get("query_offset").duration(false));
    section.rejectUnknownKeys(null);
    return context.clean()
        ? new PrometheusSource(url, timeout, http, Optional.ofNullable(rulesUrl), intervals)
        : null;
  }

  AlertmanagerSource alertmanager(Node section) {
    if (section == null) {
      return null;
    }
    settings.refuseSecrets(section, true, true);
    URI url =
        section
            .get("url")
            .required(
                "expected the http or https URL of Alertmanager, such as http://127.0.0.1:9093")
            .url("http://127.0.0.1:9093", USE_CREDENTIAL_KEYS);
    Duration timeout = section.get("timeout").timeout();
    HttpSettings http = settings.read(section, url, "AM_TOKEN");
    section.rejectUnknownKeys(null);
    return context.clean() ? new AlertmanagerSource(url, timeout, http) : null;
  }

  ReceiverSpec receiver(Node section) {
    if (section == null) {
      return null;
    }
    settings.refuseSecrets(section, true, false);
    String listen =
        section
            .get("listen")
            .required(
                "expected where firedrill's webhook receiver listens, such as 127.0.0.1:19101")
            .text(
                LISTEN,
                "expected HOST:PORT with an IP address or localhost, such as 127.0.0.1:19101");
    TokenSource token = settings.envOrFile(section, "bearer_token", "RECEIVER_TOKEN");
    Integer maxPayload = section.get("max_payload").integer(1024);
    section.rejectUnknownKeys(null);
    return context.clean()
        ? new ReceiverSpec(listen, token, maxPayload == null ? 0 : maxPayload)
        : null;
  }

  Markers markers(Node section) {
    if (section == null) {
      return Markers.none();
    }
    Optional<GrafanaTarget> grafana =
        Optional.ofNullable(grafana(section.section("grafana", null)));
    Optional<MetricsExport> metrics =
        Optional.ofNullable(metricsExport(section.section("metrics", null)));
    section.rejectUnknownKeys(null);
    return new Markers(grafana, metrics);
  }

  private GrafanaTarget grafana(Node section) {
    if (section == null) {
      return null;
    }
    settings.refuseSecrets(section, true, true);
    URI url =
        section
            .get("url")
            .required("expected the http or https URL of Grafana, such as http://127.0.0.1:3000")
            .url("http://127.0.0.1:3000", USE_CREDENTIAL_KEYS);
    Node uidNode = section.get("dashboard_uid");
    String dashboardUid =
        uidNode.text(
            DASHBOARD_UID,
            "expected a dashboard UID of letters, digits, '-' and '_', such as firedrill-lab");
    Node panelNode = section.get("panel_id");
    Integer panelId = panelNode.integer(1);
    if (panelNode.present() && !uidNode.present()) {
      panelNode.problem(
          "expected dashboard_uid beside panel_id: a panel annotation belongs to a dashboard");
    }
    Duration timeout = section.get("timeout").timeout();
    Integer orgId = section.get("org_id").integer(1);
    HttpSettings http = settings.read(section, url, "GRAFANA_TOKEN");
    section.rejectUnknownKeys(null);
    return context.clean()
        ? new GrafanaTarget(
            url,
            Optional.ofNullable(dashboardUid),
            Optional.ofNullable(panelId),
            http,
            timeout,
            Optional.ofNullable(orgId).map(Integer::longValue))
        : null;
  }

  private MetricsExport metricsExport(Node section) {
    if (section == null) {
      return null;
    }
    settings.refuseSecrets(section, false, false);
    Node listenNode = section.get("listen");
    String listen =
        listenNode.text(
            LISTEN, "expected HOST:PORT with an IP address or localhost, such as 127.0.0.1:19466");
    Duration scrapeWait = section.get("scrape_wait").duration(false);
    Node pushNode = section.get("pushgateway");
    URI pushgateway =
        pushNode.present()
            ? pushNode.url(
                "http://127.0.0.1:9091", "firedrill pushes to the Pushgateway without credentials")
            : null;
    if (!listenNode.present() && !pushNode.present()) {
      section.problem(
          "expected listen (an endpoint for Prometheus to scrape), pushgateway, or both");
    }
    section.rejectUnknownKeys(null);
    return context.clean()
        ? new MetricsExport(
            Optional.ofNullable(listen), scrapeWait, Optional.ofNullable(pushgateway))
        : null;
  }
}
