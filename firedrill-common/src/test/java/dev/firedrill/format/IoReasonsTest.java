package dev.firedrill.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IoReasonsTest {

  @TempDir Path dir;

  @Test
  void aMissingFileAndADirectoryAreSaidInWords() {
    assertThat(reason(dir.resolve("absent.yml"))).isEqualTo("no such file");
    assertThat(reason(dir)).isEqualTo("a directory, not a file");
  }

  private static String reason(Path file) {
    try {
      Files.readString(file);
      throw new AssertionError(file + " was read");
    } catch (IOException e) {
      return IoReasons.of(e);
    }
  }
}
