package dev.firedrill.watchdog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * The watchdog's files are written to a temp file beside them and renamed over the old one: the
 * other process, reading at any moment (or after a SIGKILL), only ever sees a whole file.
 */
final class AtomicJson {

  static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private AtomicJson() {}

  static void write(Path path, JsonNode node) throws IOException {
    Path parent = path.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    Path temp = Files.createTempFile(parent, "." + path.getFileName(), ".tmp");
    try {
      MAPPER.writeValue(temp.toFile(), node);
      try {
        Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, path, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** The file's JSON; empty when there is no file yet. */
  static Optional<JsonNode> read(Path path) throws IOException {
    try {
      return Optional.of(MAPPER.readTree(Files.readAllBytes(path)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }
}
