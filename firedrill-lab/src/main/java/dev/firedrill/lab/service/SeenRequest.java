package dev.firedrill.lab.service;

import java.util.Optional;

/**
 * The trace headers of a request payments received, for tests and {@code GET /debug/last-request}.
 */
public record SeenRequest(Optional<String> traceparent, Optional<String> baggage) {

  public SeenRequest {
    traceparent = traceparent == null ? Optional.empty() : traceparent;
    baggage = baggage == null ? Optional.empty() : baggage;
  }
}
