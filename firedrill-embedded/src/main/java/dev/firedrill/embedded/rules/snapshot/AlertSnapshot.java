package dev.firedrill.embedded.rules.snapshot;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One alert as {@code /api/v1/alerts} and a rule's {@code alerts} list show it. {@code value} is
 * already Go's {@code %e} text ({@code 1e+00}); {@code activeAt} is empty only for Go's zero time.
 */
public record AlertSnapshot(
    Map<String, String> labels,
    Map<String, String> annotations,
    String state,
    Optional<Instant> activeAt,
    Optional<Instant> keepFiringSince,
    String value) {

  public AlertSnapshot {
    labels = Map.copyOf(labels);
    annotations = Map.copyOf(annotations);
  }
}
