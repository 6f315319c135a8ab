package dev.firedrill.embedded.notify;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * An alert as Alertmanager's {@code POST /api/v2/alerts} takes it. {@code startsAt} is when it
 * started firing; {@code endsAt} is its resolve time once resolved, else how long it stays valid
 * without being sent again.
 */
public record OutgoingAlert(
    Map<String, String> labels,
    Map<String, String> annotations,
    Instant startsAt,
    Instant endsAt,
    String generatorUrl) {

  public OutgoingAlert {
    labels = Map.copyOf(labels);
    annotations = Map.copyOf(annotations);
    Objects.requireNonNull(startsAt, "startsAt");
    Objects.requireNonNull(endsAt, "endsAt");
    Objects.requireNonNull(generatorUrl, "generatorUrl");
  }
}
