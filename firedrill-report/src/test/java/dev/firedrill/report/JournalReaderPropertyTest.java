package dev.firedrill.report;

import dev.firedrill.testing.hostile.CleanOutcome;
import dev.firedrill.testing.hostile.HostileInputs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The journal reader (what report and cleanup read) on hostile journals: a record, or one line
 * naming the file and where: its line and column when it is not JSON, the field (such as {@code
 * events[].at}) when it is JSON of the wrong shape.
 */
class JournalReaderPropertyTest {

  private static final Path FILE = temporary();

  private static final CleanOutcome OUTCOME =
      new CleanOutcome(
          "the journal reader",
          Pattern.compile(
              "^"
                  + Pattern.quote(FILE.toAbsolutePath().toString())
                  + ": not a firedrill journal: expected (JSON, .*\\(line \\d+, column \\d+\\)$"
                  + "|\"?[a-z_]+\"?(\\[\\]|\\.[a-z_]+)*[ :])"));

  @Property(tries = 10_000, shrinking = ShrinkingMode.OFF)
  void anyFileIsARecordOrOneLineNamingWhere(@ForAll("journals") String text) throws IOException {
    Files.write(FILE, text.getBytes(StandardCharsets.UTF_8)); // a lone surrogate becomes '?'
    OUTCOME.check(
        text,
        () -> {
          try {
            JournalReader.read(FILE);
            return List.of();
          } catch (IOException e) {
            return List.of(String.valueOf(e.getMessage()));
          }
        });
  }

  @Provide
  Arbitrary<String> journals() {
    return HostileInputs.of(
        HostileInputs.texts(Path.of("fixtures/journals"), Path.of("fixtures/testdata/journals")),
        new HostileInputs.Nesting("{\"a\":[", "1", "]}"),
        false);
  }

  private static Path temporary() {
    try {
      Path file = Files.createTempFile("hostile-journal", ".json");
      file.toFile().deleteOnExit();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @AfterContainer
  static void report() throws IOException {
    System.out.println(OUTCOME.summary());
    OUTCOME.close();
    Files.deleteIfExists(FILE);
  }
}
