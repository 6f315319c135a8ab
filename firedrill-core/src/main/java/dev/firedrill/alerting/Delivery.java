package dev.firedrill.alerting;

import java.time.Instant;
import java.util.Map;

/** One alert of one webhook notification firedrill's receiver got, with when it arrived. */
public record Delivery(
    Instant receivedAt,
    String receiver,
    String status,
    Map<String, String> labels,
    Map<String, String> annotations,
    Instant startsAt,
    String fingerprint) {

  public Delivery {
    labels = Map.copyOf(labels);
    annotations = Map.copyOf(annotations);
  }

  public boolean firing() {
    return "firing".equals(status);
  }
}
