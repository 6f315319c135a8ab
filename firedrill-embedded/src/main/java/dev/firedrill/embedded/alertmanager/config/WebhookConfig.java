package dev.firedrill.embedded.alertmanager.config;

import java.net.URI;
import java.util.Objects;

/**
 * One entry of a receiver's {@code webhook_configs}.
 *
 * @param sendResolved Alertmanager's default is true for webhooks
 * @param maxAlerts at most this many alerts per notification, the rest counted in {@code
 *     truncatedAlerts}; 0 for all
 */
public record WebhookConfig(URI url, boolean sendResolved, int maxAlerts) {

  public WebhookConfig {
    Objects.requireNonNull(url, "url");
    if (maxAlerts < 0) {
      throw new IllegalArgumentException("maxAlerts must not be negative, got " + maxAlerts);
    }
  }
}
