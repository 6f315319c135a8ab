package dev.firedrill.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;

/** The sample journals under fixtures/testdata/journals, as trees to edit and as records. */
final class Journals {

  private Journals() {}

  static Path path(String name) {
    return Path.of("fixtures/testdata/journals", name + ".journal.json");
  }

  static ObjectNode tree(String name) throws IOException {
    return (ObjectNode) new ObjectMapper().readTree(path(name).toFile());
  }

  static DrillRecord record(ObjectNode journal) throws IOException {
    return JournalReader.of(journal, "edited.journal.json");
  }
}
