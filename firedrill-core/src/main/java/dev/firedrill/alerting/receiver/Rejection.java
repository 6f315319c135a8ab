package dev.firedrill.alerting.receiver;

import java.time.Instant;
import java.util.Objects;

/**
 * A request the receiver refused: what it answered and why, in one line that never holds the token
 * or the body.
 */
public record Rejection(Instant receivedAt, int status, String reason) {

  public Rejection {
    Objects.requireNonNull(receivedAt, "receivedAt");
    Objects.requireNonNull(reason, "reason");
  }
}
