package dev.firedrill.promconfig;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RuleFileGlobTest {

  @TempDir Path dir;

  @Test
  void expandsGoGlobsInAnySegmentAndSortsRegularFilesOnly() throws Exception {
    Files.createDirectories(dir.resolve("team-a"));
    Files.createDirectories(dir.resolve("team-b/sub.yml"));
    Files.createDirectories(dir.resolve("other"));
    Files.writeString(dir.resolve("team-b/z.yml"), "");
    Files.writeString(dir.resolve("team-a/a.yml"), "");
    Files.writeString(dir.resolve("team-a/a.yaml"), "");
    Files.writeString(dir.resolve("other/o.yml"), "");
    assertThat(RuleFileGlob.expand(dir + "/team-*/*.yml"))
        .containsExactly(dir.resolve("team-a/a.yml"), dir.resolve("team-b/z.yml"));
    assertThat(RuleFileGlob.expand(dir + "/team-[^a]/?.yml"))
        .containsExactly(dir.resolve("team-b/z.yml"));
    assertThat(RuleFileGlob.expand(dir + "/team-a/a.yml"))
        .containsExactly(dir.resolve("team-a/a.yml"));
    assertThat(RuleFileGlob.expand(dir + "/missing.yml")).isEmpty();
  }

  @Test
  void bracesAreLiteralAsInGo() throws Exception {
    Files.writeString(dir.resolve("{a,b}.yml"), "");
    Files.writeString(dir.resolve("a.yml"), "");
    assertThat(RuleFileGlob.expand(dir + "/{a,b}*")).containsExactly(dir.resolve("{a,b}.yml"));
  }

  @Test
  void malformedPatternsAreNamed() {
    assertThat(RuleFileGlob.problem("/x/[].yml"))
        .isEqualTo(
            "syntax error in pattern \"[].yml\" (an unclosed or empty [ ], a reversed range, or a trailing \\)");
    assertThat(RuleFileGlob.problem("/x/[z-a].yml"))
        .startsWith("syntax error in pattern \"[z-a].yml\"");
    assertThat(RuleFileGlob.problem("/x/*.yml")).isNull();
  }
}
