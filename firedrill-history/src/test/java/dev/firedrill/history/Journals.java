package dev.firedrill.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Real journals: the demo's payments-outage drill (alerts fired, routed right; its rows carry the
 * receivers fields), and a payments-latency drill journaled before those fields existed.
 */
final class Journals {

  static final Path OUTAGE = Path.of("fixtures/journals/payments-outage.json");
  static final Path LATENCY = Path.of("fixtures/journals/payments-latency-before-receivers.json");

  private Journals() {}

  static JsonNode outage() {
    return read(OUTAGE);
  }

  static JsonNode latency() {
    return read(LATENCY);
  }

  private static JsonNode read(Path path) {
    try {
      return new ObjectMapper().readTree(path.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
