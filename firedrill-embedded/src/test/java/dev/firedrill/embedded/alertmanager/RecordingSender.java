package dev.firedrill.embedded.alertmanager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.embedded.alertmanager.webhook.SendResult;
import dev.firedrill.embedded.alertmanager.webhook.Sender;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A webhook receiver in memory: records each payload with the clock's time, answers as scripted
 * (200 by default).
 */
final class RecordingSender implements Sender {

  record Sent(Instant at, URI url, JsonNode json) {
    String receiver() {
      return json.get("receiver").asText();
    }

    String status() {
      return json.get("status").asText();
    }

    List<String> alertnames() {
      List<String> names = new ArrayList<>();
      json.get("alerts")
          .forEach(
              a ->
                  names.add(
                      a.get("labels").path("alertname").asText()
                          + "/"
                          + a.get("labels").path("instance").asText()
                          + ":"
                          + a.get("status").asText()));
      return names;
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Clock clock;
  private final List<Sent> sent = new ArrayList<>();
  private final Deque<SendResult> script = new ArrayDeque<>();

  RecordingSender(Clock clock) {
    this.clock = clock;
  }

  /** The next answers, in order; then 200s. */
  void answer(SendResult... results) {
    script.addAll(List.of(results));
  }

  List<Sent> sent() {
    return List.copyOf(sent);
  }

  @Override
  public synchronized SendResult send(URI url, byte[] json, Duration timeout) {
    try {
      sent.add(new Sent(clock.now(), url, JSON.readTree(json)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return script.isEmpty() ? new SendResult.Delivered() : script.removeFirst();
  }
}
