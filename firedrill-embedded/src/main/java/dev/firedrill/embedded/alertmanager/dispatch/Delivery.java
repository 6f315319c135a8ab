package dev.firedrill.embedded.alertmanager.dispatch;

import dev.firedrill.embedded.alertmanager.config.WebhookConfig;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * One attempt to send a webhook payload, handed by the {@link Dispatcher} to whoever drives it, and
 * handed back with its result through {@link Dispatcher#completed}.
 */
public final class Delivery {

  final Flush flush;
  final int integration;
  final WebhookConfig webhook;
  final Set<Long> firing;
  final Set<Long> resolved;
  private final byte[] payload;
  final int attempt;
  final Instant due;

  Delivery(
      Flush flush,
      int integration,
      WebhookConfig webhook,
      Set<Long> firing,
      Set<Long> resolved,
      byte[] payload,
      int attempt,
      Instant due) {
    this.flush = flush;
    this.integration = integration;
    this.webhook = webhook;
    this.firing = Set.copyOf(firing);
    this.resolved = Set.copyOf(resolved);
    this.payload = payload;
    this.attempt = attempt;
    this.due = due;
  }

  Delivery retryAt(Instant at) {
    return new Delivery(flush, integration, webhook, firing, resolved, payload, attempt + 1, at);
  }

  public URI url() {
    return webhook.url();
  }

  /** The JSON body; a copy. */
  public byte[] payload() {
    return payload.clone();
  }

  public String receiver() {
    return flush.group.route.receiver();
  }

  public String groupKey() {
    return flush.group.groupKey;
  }

  /**
   * What is left of the flush's time (one group_interval, as Alertmanager's context), at least a
   * millisecond.
   */
  public Duration timeout(Instant now) {
    Duration left = Duration.between(now, flush.deadline);
    return left.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : left;
  }

  /** {@code receiver/webhook[i]}, as Alertmanager names an integration in its logs. */
  public String integrationName() {
    return receiver() + "/webhook[" + integration + "]";
  }
}
