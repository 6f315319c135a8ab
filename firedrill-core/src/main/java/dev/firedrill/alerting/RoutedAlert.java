package dev.firedrill.alerting;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** An alert as Alertmanager holds it, with the receivers its route tree chose. */
public record RoutedAlert(
    Map<String, String> labels,
    Map<String, String> annotations,
    Instant startsAt,
    String fingerprint,
    List<String> receivers) {

  public RoutedAlert {
    labels = Map.copyOf(labels);
    annotations = Map.copyOf(annotations);
    receivers = List.copyOf(receivers);
  }
}
