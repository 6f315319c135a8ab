package dev.firedrill.prometheus;

import java.util.List;
import java.util.Optional;

/**
 * The part of Prometheus's HTTP API that alert detection reads, beside {@link PrometheusClient}'s
 * queries: active alerts, rule state, and the loaded configuration (for detection floors). Each
 * failure is a {@link PrometheusException} with one line naming the server and the request.
 */
public interface PrometheusAlertsApi {

  /** {@code GET /api/v1/alerts}: every pending and firing alert. */
  List<PrometheusAlert> alerts() throws PrometheusException;

  /** {@code GET /api/v1/rules}: every rule group with its rules' state and health. */
  List<RuleGroup> rules() throws PrometheusException;

  /** {@code GET /api/v1/status/config}: the loaded configuration as YAML, defaults filled in. */
  String config() throws PrometheusException;

  /**
   * Why {@link #rules()} answered no group at all, when the server can tell (VictoriaMetrics
   * without {@code -vmalert.proxyURL}); empty when it cannot. Never throws: it only explains.
   */
  default Optional<String> whyNoRules() {
    return Optional.empty();
  }

  /**
   * The rules' details from Grafana's provisioning API when this is Grafana's Prometheus-compatible
   * API ({@code .../api/prometheus/grafana}); empty for any other server.
   */
  default Optional<List<GrafanaRuleDetails>> grafanaRuleDetails() throws PrometheusException {
    return Optional.empty();
  }
}
