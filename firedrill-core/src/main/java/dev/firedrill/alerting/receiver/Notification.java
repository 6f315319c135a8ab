package dev.firedrill.alerting.receiver;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One webhook notification as Alertmanager sent it (payload version 4).
 *
 * @param receivedAt when the request reached firedrill, from the receiver's clock
 * @param receiver the Alertmanager receiver whose webhook config sent it: the routing verdict
 * @param status {@code firing} or {@code resolved}, for the group as a whole
 * @param groupKey Alertmanager's key for the aggregation group (route path and group labels)
 * @param groupLabels the labels the route groups by
 * @param alerts the alerts of the group, possibly truncated by {@code max_alerts}
 * @param truncatedAlerts how many alerts Alertmanager left out ({@code max_alerts}); 0 usually
 */
public record Notification(Instant receivedAt, String receiver, String status, String groupKey,
    Map<String, String> groupLabels, List<NotifiedAlert> alerts, long truncatedAlerts) {

  public Notification {
    Objects.requireNonNull(receivedAt, "receivedAt");
    Objects.requireNonNull(receiver, "receiver");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(groupKey, "groupKey");
    groupLabels = NotifiedAlert.copy(groupLabels);
    alerts = List.copyOf(alerts);
  }

  public Notification(Instant receivedAt, String receiver, String status, String groupKey,
      Map<String, String> groupLabels, List<NotifiedAlert> alerts) {
    this(receivedAt, receiver, status, groupKey, groupLabels, alerts, 0);
  }

  public boolean firing() {
    return "firing".equals(status);
  }
}
