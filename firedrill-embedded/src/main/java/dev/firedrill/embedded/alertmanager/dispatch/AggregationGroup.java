package dev.firedrill.embedded.alertmanager.dispatch;

import dev.firedrill.alerting.routes.Route;
import dev.firedrill.embedded.alertmanager.alert.Alert;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;

/**
 * The alerts of one route with the same values of its {@code group_by} labels, and when they flush
 * next.
 */
final class AggregationGroup {

  final Route route;
  final SortedMap<String, String> labels;
  final String groupKey;

  /** Creation order: groups due at the same instant flush in this order. */
  final long sequence;

  final Map<Long, Alert> alerts = new LinkedHashMap<>();
  Instant nextFlush;
  boolean hasFlushed;

  /**
   * The flush whose webhooks are still being sent; the next one waits for it, as Alertmanager's
   * loop does.
   */
  Flush inFlight;

  AggregationGroup(
      Route route,
      SortedMap<String, String> labels,
      String groupKey,
      long sequence,
      Instant nextFlush) {
    this.route = route;
    this.labels = labels;
    this.groupKey = groupKey;
    this.sequence = sequence;
    this.nextFlush = nextFlush;
  }
}
