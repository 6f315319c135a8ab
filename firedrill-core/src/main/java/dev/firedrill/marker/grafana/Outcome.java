package dev.firedrill.marker.grafana;

import java.util.OptionalInt;

/**
 * What one request to Grafana came to: an HTTP status with its body, or no answer at all (refused,
 * reset, timed out) with the reason.
 */
record Outcome(OptionalInt status, String body, String failure) {

  static Outcome answered(int status, String body) {
    return new Outcome(OptionalInt.of(status), body == null ? "" : body, "");
  }

  static Outcome noAnswer(String failure) {
    return new Outcome(OptionalInt.empty(), "", failure);
  }

  boolean ok() {
    return status.isPresent() && status.getAsInt() / 100 == 2;
  }

  /** Worth another attempt: no answer, 5xx, or 429; any other 4xx will answer the same again. */
  boolean retryable() {
    if (status.isEmpty()) {
      return true;
    }
    int code = status.getAsInt();
    return code >= 500 || code == 429;
  }

  /** For notes: the status and Grafana's {@code message}, or why there was no answer. */
  String describe() {
    if (status.isEmpty()) {
      return failure;
    }
    String message = GrafanaJson.message(body);
    return "HTTP " + status.getAsInt() + (message.isEmpty() ? "" : " \"" + message + "\"");
  }
}
