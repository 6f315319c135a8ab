package dev.firedrill.alerting.receiver;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One alert of a webhook notification.
 *
 * @param status {@code firing} or {@code resolved}
 * @param labels the alert's identity, names sorted
 * @param annotations summary, runbook_url, dashboard and the like, names sorted
 * @param startsAt when Prometheus switched it to firing (the evaluation's timestamp)
 * @param endsAt when it resolved; empty while firing (Alertmanager sends {@code 0001-01-01T00:00:00Z})
 * @param fingerprint Alertmanager's hash of the labels, the same as in {@code /api/v2/alerts}
 */
public record NotifiedAlert(String status, Map<String, String> labels, Map<String, String> annotations,
    Instant startsAt, Optional<Instant> endsAt, String fingerprint) {

  public NotifiedAlert {
    Objects.requireNonNull(status, "status");
    labels = copy(labels);
    annotations = copy(annotations);
    Objects.requireNonNull(startsAt, "startsAt");
    Objects.requireNonNull(endsAt, "endsAt");
    Objects.requireNonNull(fingerprint, "fingerprint");
  }

  /** {@code labels.get("alertname")}, or empty text. */
  public String alertname() {
    return labels.getOrDefault("alertname", "");
  }

  static Map<String, String> copy(Map<String, String> map) {
    return Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(map)));
  }
}
