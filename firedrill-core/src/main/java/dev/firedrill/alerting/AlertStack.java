package dev.firedrill.alerting;

import java.util.List;
import java.util.Optional;

/**
 * What detection reads from the observability stack: Prometheus's rules and alerts, Alertmanager's
 * alerts with their receivers, the webhooks firedrill's receiver got, and whether a link answers.
 */
public interface AlertStack {

  RuleBook rules() throws AlertStackException;

  /** Prometheus's pending and firing alerts ({@code /api/v1/alerts}). */
  List<PromAlert> alerts() throws AlertStackException;

  /** Alertmanager's alerts ({@code /api/v2/alerts}); empty when the drill has no Alertmanager. */
  List<RoutedAlert> routed() throws AlertStackException;

  /** Every alert of every firing or resolved webhook received so far; empty without a receiver. */
  List<Delivery> deliveries();

  /**
   * The webhook notifications received so far that Alertmanager cut short ({@code truncatedAlerts >
   * 0}); a stack without firedrill's receiver sees none.
   */
  default List<Truncation> truncations() {
    return List.of();
  }

  /** The HTTP status a GET of {@code url} answers, or empty when it does not answer. */
  Optional<Integer> linkStatus(String url);
}
