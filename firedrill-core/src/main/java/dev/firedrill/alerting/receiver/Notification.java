package dev.firedrill.alerting.receiver;

import dev.firedrill.alerting.webhook.WebhookMessage;
import java.time.Instant;
import java.util.Objects;

/**
 * One webhook notification as Alertmanager sent it (payload version 4), and when it arrived.
 *
 * @param receivedAt when the request reached firedrill, from the receiver's clock
 * @param message what Alertmanager sent: its receiver is the routing verdict
 */
public record Notification(Instant receivedAt, WebhookMessage message) {

  public Notification {
    Objects.requireNonNull(receivedAt, "receivedAt");
    Objects.requireNonNull(message, "message");
  }
}
