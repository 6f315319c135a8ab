package dev.firedrill.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.format.JsonErrors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes the journal by writing a temp file beside it and renaming it over the old one, so a reader
 * (or a drill killed with SIGKILL) only ever sees a whole journal.
 */
public final class JournalFile {

  private final Path path;

  public JournalFile(Path path) {
    this.path = path.toAbsolutePath();
  }

  public Path path() {
    return path;
  }

  public void write(Journal journal) {
    try {
      Path parent = path.getParent();
      Files.createDirectories(parent);
      Path temp = Files.createTempFile(parent, "." + path.getFileName(), ".tmp");
      try {
        Jsons.MAPPER.writeValue(temp.toFile(), journal.json());
        try {
          Files.move(
              temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(temp, path, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(temp);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(path + ": cannot write the journal: " + e.getMessage(), e);
    }
  }

  /**
   * Deletes the temp files a writer killed between creating and renaming them left beside {@code
   * file} ({@code .NAME*.tmp}, the journal's and the watchdog's atomic writes alike); a SIGKILL can
   * land there. Best effort: what cannot be deleted stays.
   */
  public static void removeLeftoverTemps(Path file) {
    Path parent = file.toAbsolutePath().getParent();
    String prefix = "." + file.getFileName();
    if (parent == null || !Files.isDirectory(parent)) {
      return;
    }
    try (var files = Files.list(parent)) {
      for (Path leftover :
          files
              .filter(p -> p.getFileName().toString().startsWith(prefix))
              .filter(p -> p.getFileName().toString().endsWith(".tmp"))
              .toList()) {
        Files.deleteIfExists(leftover);
      }
    } catch (IOException e) {
      // a leftover temp file is litter, never a fault: cleanup's outcome does not depend on it
    }
  }

  public Journal read() throws IOException {
    if (!Files.isRegularFile(path)) {
      throw new IOException(
          path
              + (Files.exists(path) ? ": not a file" : ": no such file")
              + " (expected a firedrill journal)");
    }
    JsonNode node;
    try {
      node = JsonErrors.readTree(Jsons.MAPPER, Jsons.MAPPER.createParser(path.toFile()));
    } catch (JsonErrors.Refused e) {
      throw new IOException(
          path
              + ": not a firedrill journal: expected JSON, "
              + e.getMessage()
              + (e.where().isEmpty() ? "" : " " + e.where()));
    }
    if (!(node instanceof ObjectNode object) || !node.has("firedrill_journal")) {
      throw new IOException(
          path + ": not a firedrill journal: expected a JSON object with \"firedrill_journal\"");
    }
    return Journal.of(object);
  }

  /** The journal as pretty-printed JSON, for {@code --json}. */
  public static String toJson(Journal journal) {
    try {
      return Jsons.MAPPER.writeValueAsString(journal.json());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
