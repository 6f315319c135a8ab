package dev.firedrill.embedded.alertmanager.dispatch;

import dev.firedrill.embedded.alertmanager.webhook.WebhookAlert;
import java.time.Instant;
import java.util.List;

/** One flush of a group: its alerts as of the tick, and the webhooks still to answer. */
final class Flush {

  final AggregationGroup group;
  final List<WebhookAlert> alerts;
  final Instant deadline;
  int pending;
  boolean failed;

  Flush(AggregationGroup group, List<WebhookAlert> alerts, Instant deadline) {
    this.group = group;
    this.alerts = List.copyOf(alerts);
    this.deadline = deadline;
  }
}
