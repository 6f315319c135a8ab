package dev.firedrill.alerting.webhook;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Alertmanager's webhook message, version 4, as it travels: written by the embedded Alertmanager,
 * read by firedrill's receiver; {@link WebhookJson} is its one JSON form. Maps are sorted by name,
 * as Go writes them.
 *
 * @param receiver the receiver whose webhook config sent it, regexp-quoted as Alertmanager quotes
 *     it
 * @param status {@code firing} when any alert of the message fires, else {@code resolved}
 * @param alerts the alerts of the group, possibly cut by {@code max_alerts}
 * @param groupLabels the labels the route groups by
 * @param commonLabels the labels all its alerts share
 * @param commonAnnotations the annotations all its alerts share
 * @param externalUrl the Alertmanager's external URL ({@code ""} when a reader was not told)
 * @param groupKey Alertmanager's key for the aggregation group (route path and group labels)
 * @param truncatedAlerts how many alerts {@code max_alerts} left out; 0 usually
 */
public record WebhookMessage(
    String receiver,
    String status,
    List<Alert> alerts,
    Map<String, String> groupLabels,
    Map<String, String> commonLabels,
    Map<String, String> commonAnnotations,
    String externalUrl,
    String groupKey,
    long truncatedAlerts) {

  /** The payload version this record is. */
  public static final String VERSION = "4";

  /** The version of Grafana's contact-point webhook, read as this record too. */
  public static final String GRAFANA_VERSION = "1";

  public WebhookMessage {
    Objects.requireNonNull(receiver, "receiver");
    Objects.requireNonNull(status, "status");
    alerts = List.copyOf(alerts);
    groupLabels = sorted(groupLabels);
    commonLabels = sorted(commonLabels);
    commonAnnotations = sorted(commonAnnotations);
    Objects.requireNonNull(externalUrl, "externalUrl");
    Objects.requireNonNull(groupKey, "groupKey");
  }

  public boolean firing() {
    return "firing".equals(status);
  }

  /**
   * One alert of a message.
   *
   * @param status {@code firing} or {@code resolved}
   * @param labels the alert's identity
   * @param annotations summary, runbook_url, dashboard and the like
   * @param startsAt when Prometheus switched it to firing (the evaluation's timestamp)
   * @param endsAt when it resolved; empty while firing (Alertmanager sends Go's zero time)
   * @param generatorUrl the Prometheus graph link of its rule ({@code ""} when a reader was not
   *     told)
   * @param fingerprint Alertmanager's hash of the labels, the same as in {@code /api/v2/alerts}
   */
  public record Alert(
      String status,
      Map<String, String> labels,
      Map<String, String> annotations,
      Instant startsAt,
      Optional<Instant> endsAt,
      String generatorUrl,
      String fingerprint) {

    public Alert {
      Objects.requireNonNull(status, "status");
      labels = sorted(labels);
      annotations = sorted(annotations);
      Objects.requireNonNull(startsAt, "startsAt");
      Objects.requireNonNull(endsAt, "endsAt");
      Objects.requireNonNull(generatorUrl, "generatorUrl");
      Objects.requireNonNull(fingerprint, "fingerprint");
    }

    /** {@code labels.get("alertname")}, or empty text. */
    public String alertname() {
      return labels.getOrDefault("alertname", "");
    }
  }

  private static Map<String, String> sorted(Map<String, String> map) {
    return Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(map)));
  }
}
