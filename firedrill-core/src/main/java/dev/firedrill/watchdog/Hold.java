package dev.firedrill.watchdog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.time.Durations;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One fault the watchdog holds: its kind, its spec and state as the journal keeps them (what {@code
 * FaultKinds.restore} needs), its ttl and the deadline that ttl gives, and whether firedrill has
 * undone it itself ({@code done}).
 */
public record Hold(
    int index,
    String kind,
    JsonNode spec,
    JsonNode state,
    Duration ttl,
    Instant deadline,
    boolean done) {

  public Hold {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(ttl, "ttl");
    Objects.requireNonNull(deadline, "deadline");
  }

  Hold withState(JsonNode newState) {
    return new Hold(index, kind, spec, newState, ttl, deadline, done);
  }

  Hold asDone() {
    return new Hold(index, kind, spec, state, ttl, deadline, true);
  }

  ObjectNode json() {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("index", index);
    node.put("kind", kind);
    node.set("spec", spec);
    node.set("state", state);
    node.put("ttl", Durations.format(ttl));
    node.put("deadline", deadline.toString());
    node.put("done", done);
    return node;
  }

  static Hold of(JsonNode node) {
    return new Hold(
        node.path("index").asInt(),
        node.path("kind").asText(),
        node.path("spec"),
        node.path("state"),
        Durations.parse(node.path("ttl").asText()),
        Instant.parse(node.path("deadline").asText()),
        node.path("done").asBoolean(false));
  }
}
