package dev.firedrill.alerting;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One alert as Alertmanager's {@code GET /api/v2/alerts} shows it.
 *
 * @param startsAt when Prometheus switched it to firing
 * @param endsAt when Alertmanager considers it resolved: for a firing alert, a time in the near
 *     future that Prometheus pushes forward with every resend
 * @param updatedAt when Alertmanager last received it
 * @param state {@code active}, {@code suppressed} (silenced or inhibited) or {@code unprocessed}
 * @param receivers the names of the receivers its routes lead to
 * @param generatorUrl the link back to Prometheus's expression; empty when absent
 */
public record AlertmanagerAlert(
    Map<String, String> labels,
    Map<String, String> annotations,
    Instant startsAt,
    Instant endsAt,
    Instant updatedAt,
    String fingerprint,
    String state,
    List<String> receivers,
    List<String> silencedBy,
    List<String> inhibitedBy,
    String generatorUrl) {

  public AlertmanagerAlert {
    labels = sorted(labels);
    annotations = sorted(annotations);
    Objects.requireNonNull(startsAt, "startsAt");
    Objects.requireNonNull(endsAt, "endsAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(state, "state");
    receivers = List.copyOf(receivers);
    silencedBy = List.copyOf(silencedBy);
    inhibitedBy = List.copyOf(inhibitedBy);
    Objects.requireNonNull(generatorUrl, "generatorUrl");
  }

  public String alertname() {
    return labels.getOrDefault("alertname", "");
  }

  private static Map<String, String> sorted(Map<String, String> map) {
    return Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(map)));
  }
}
