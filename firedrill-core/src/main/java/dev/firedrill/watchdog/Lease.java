package dev.firedrill.watchdog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The lease firedrill renews at every measurement. The watchdog judges it by its own monotonic
 * clock, counting from when it last saw {@code sequence} change: two processes' wall clocks (or a
 * drill's virtual one) never have to agree. {@code renewedAt} is for humans reading the file.
 */
public record Lease(long sequence, Duration grace, boolean ended, Instant renewedAt) {

  void write(Path path) throws IOException {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    root.put("sequence", sequence);
    root.put("grace_ms", grace.toMillis());
    root.put("ended", ended);
    root.put("renewed_at", renewedAt.toString());
    AtomicJson.write(path, root);
  }

  static Optional<Lease> read(Path path) throws IOException {
    Optional<JsonNode> node = AtomicJson.read(path);
    return node.map(
        n ->
            new Lease(
                n.path("sequence").asLong(),
                Duration.ofMillis(n.path("grace_ms").asLong()),
                n.path("ended").asBoolean(false),
                Instant.parse(n.path("renewed_at").asText())));
  }
}
