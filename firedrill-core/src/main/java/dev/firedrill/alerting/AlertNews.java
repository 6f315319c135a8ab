package dev.firedrill.alerting;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What a read of the alert stack found new about an expected alert, named as its expectation
 * describes itself ({@code CheckoutBurn{service="checkout"}}). Called on the drill's thread.
 */
public interface AlertNews {

  /**
   * The alert went from {@code previous} (empty: never seen in this drill) to {@code state}; {@code
   * activeAt} is Prometheus's, where it reports one (never for resolved).
   */
  void state(
      String alert, AlertState state, Optional<AlertState> previous, Optional<Instant> activeAt);

  /** Alertmanager holds the alert, started at {@code startsAt}, routed to {@code receivers}. */
  void routed(String alert, Instant startsAt, List<String> receivers);

  /**
   * firedrill's webhook receiver got the alert's first firing notification, for {@code receiver}.
   */
  void notified(String alert, String receiver, Instant receivedAt, Instant startsAt);
}
