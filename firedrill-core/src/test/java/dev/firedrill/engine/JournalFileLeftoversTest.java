package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a writer killed mid-write leaves beside a journal, and only that, is removed. */
class JournalFileLeftoversTest {

  @TempDir Path dir;

  @Test
  void onlyTheFilesTempFilesGo() throws Exception {
    Path journal = Files.writeString(dir.resolve("journal.json"), "{}");
    Files.writeString(dir.resolve(".journal.json1234567.tmp"), "{\"half");
    Files.writeString(dir.resolve(".other.json99.tmp"), "{}");
    Files.writeString(dir.resolve("journal.json.tmp"), "{}");

    JournalFile.removeLeftoverTemps(journal);

    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("journal.json", ".other.json99.tmp", "journal.json.tmp");
    }
  }
}
