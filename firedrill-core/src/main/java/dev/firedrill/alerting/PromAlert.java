package dev.firedrill.alerting;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * An alert as Prometheus reports it: pending or firing since {@code activeAt} (there is no firing
 * time).
 */
public record PromAlert(
    Map<String, String> labels,
    Map<String, String> annotations,
    String state,
    Optional<Instant> activeAt) {

  public PromAlert {
    labels = Map.copyOf(labels);
    annotations = Map.copyOf(annotations);
    activeAt = activeAt == null ? Optional.empty() : activeAt;
  }

  public boolean firing() {
    return "firing".equals(state);
  }
}
