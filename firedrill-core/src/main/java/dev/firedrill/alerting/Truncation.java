package dev.firedrill.alerting;

import java.time.Instant;
import java.util.Objects;

/**
 * One webhook notification Alertmanager cut short: {@code truncatedAlerts} of its group's alerts
 * were left out ({@code max_alerts} in the receiver's {@code webhook_config}), so an alert may have
 * fired and been routed without appearing in any notification.
 */
public record Truncation(
    Instant receivedAt, String receiver, String groupKey, long truncatedAlerts) {

  public Truncation {
    Objects.requireNonNull(receivedAt, "receivedAt");
    Objects.requireNonNull(receiver, "receiver");
    Objects.requireNonNull(groupKey, "groupKey");
    if (truncatedAlerts < 1) {
      throw new IllegalArgumentException(
          "a truncation leaves out at least one alert, got " + truncatedAlerts);
    }
  }
}
