package dev.firedrill.embedded.alertmanager.config;

import java.util.List;
import java.util.Objects;

/**
 * A named receiver; one without webhooks (such as a catch-all) notifies nobody, as in Alertmanager.
 */
public record Receiver(String name, List<WebhookConfig> webhooks) {

  public Receiver {
    Objects.requireNonNull(name, "name");
    webhooks = List.copyOf(webhooks);
  }
}
