package dev.firedrill.prometheus;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An alert as Prometheus's rule evaluation holds it ({@code /api/v1/alerts}, or a rule's {@code
 * alerts} in {@code /api/v1/rules}).
 *
 * @param state {@code pending} or {@code firing} ({@code inactive} only in some 3.x listings)
 * @param activeAt when the expression first returned this series: the start of {@code for}, not the
 *     firing time (the API has none; the webhook's and Alertmanager's {@code startsAt} has it)
 * @param value the expression's value at the last evaluation, as Prometheus wrote it ({@code
 *     "1e+00"})
 */
public record PrometheusAlert(
    Map<String, String> labels,
    Map<String, String> annotations,
    String state,
    Optional<Instant> activeAt,
    String value) {

  public PrometheusAlert {
    labels = sorted(labels);
    annotations = sorted(annotations);
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(activeAt, "activeAt");
    Objects.requireNonNull(value, "value");
  }

  public String alertname() {
    return labels.getOrDefault("alertname", "");
  }

  static Map<String, String> sorted(Map<String, String> map) {
    return Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(map)));
  }
}
