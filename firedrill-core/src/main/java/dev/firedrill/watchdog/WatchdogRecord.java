package dev.firedrill.watchdog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the watchdog undid, fault by fault: the file {@code cleanup} reads, so that it reports a
 * fault the watchdog already undid instead of failing on it.
 */
public record WatchdogRecord(List<Entry> entries) {

  /** One fault the watchdog acted on: why (lease or ttl), when, and how it went. */
  public record Entry(
      int index, String kind, String why, Instant at, boolean ok, String detail, String manual) {

    /** "the watchdog undid it at 2026-...: (its lease ran out) resumed 1 process ..." */
    public String line() {
      return (ok ? "the watchdog already undid it at " : "the watchdog could not undo it at ")
          + at
          + " ("
          + why
          + "): "
          + detail;
    }
  }

  public WatchdogRecord {
    entries = List.copyOf(entries);
  }

  /** The watchdog's last word on the fault at {@code index}. */
  public Optional<Entry> last(int index) {
    Entry found = null;
    for (Entry entry : entries) {
      if (entry.index() == index) {
        found = entry;
      }
    }
    return Optional.ofNullable(found);
  }

  WatchdogRecord with(Entry entry) {
    List<Entry> all = new ArrayList<>(entries);
    all.add(entry);
    return new WatchdogRecord(all);
  }

  void write(Path path) throws IOException {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    ArrayNode list = root.putArray("undone");
    for (Entry entry : entries) {
      ObjectNode node = list.addObject();
      node.put("index", entry.index());
      node.put("kind", entry.kind());
      node.put("why", entry.why());
      node.put("at", entry.at().toString());
      node.put("ok", entry.ok());
      node.put("detail", entry.detail());
      if (!entry.ok()) {
        node.put("manual_command", entry.manual());
      }
    }
    AtomicJson.write(path, root);
  }

  /** The record at {@code path}; none when the watchdog never acted. */
  public static WatchdogRecord read(Path path) throws IOException {
    Optional<JsonNode> node = AtomicJson.read(path);
    List<Entry> entries = new ArrayList<>();
    node.ifPresent(
        root -> {
          for (JsonNode n : root.path("undone")) {
            entries.add(
                new Entry(
                    n.path("index").asInt(),
                    n.path("kind").asText(),
                    n.path("why").asText(),
                    Instant.parse(n.path("at").asText()),
                    n.path("ok").asBoolean(),
                    n.path("detail").asText(),
                    n.path("manual_command").asText(null)));
          }
        });
    return new WatchdogRecord(entries);
  }
}
