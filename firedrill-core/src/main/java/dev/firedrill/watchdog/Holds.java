package dev.firedrill.watchdog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.time.Durations;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The holds file: the experiment (what a restored fault's context needs) and every held fault.
 * firedrill writes it; the watchdog only reads it.
 */
public record Holds(String experimentId, Duration methodDuration, List<Hold> faults) {

  public Holds {
    faults = List.copyOf(faults);
  }

  /** The faults firedrill has not undone itself. */
  public List<Hold> pending() {
    return faults.stream().filter(hold -> !hold.done()).toList();
  }

  Holds with(Hold hold) {
    List<Hold> all = new ArrayList<>();
    boolean replaced = false;
    for (Hold existing : faults) {
      if (existing.index() == hold.index()) {
        all.add(hold);
        replaced = true;
      } else {
        all.add(existing);
      }
    }
    if (!replaced) {
      all.add(hold);
    }
    return new Holds(experimentId, methodDuration, all);
  }

  Optional<Hold> hold(int index) {
    return faults.stream().filter(hold -> hold.index() == index).findFirst();
  }

  void write(Path path) throws IOException {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    root.put("experiment_id", experimentId);
    root.put("method_duration", Durations.format(methodDuration));
    ArrayNode list = root.putArray("faults");
    faults.forEach(hold -> list.add(hold.json()));
    AtomicJson.write(path, root);
  }

  /** The holds file; empty while firedrill has not written it. */
  public static Optional<Holds> read(Path path) throws IOException {
    Optional<JsonNode> node = AtomicJson.read(path);
    if (node.isEmpty()) {
      return Optional.empty();
    }
    List<Hold> faults = new ArrayList<>();
    node.get().path("faults").forEach(fault -> faults.add(Hold.of(fault)));
    return Optional.of(
        new Holds(
            node.get().path("experiment_id").asText(),
            Durations.parse(node.get().path("method_duration").asText()),
            faults));
  }
}
