package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lab's configs and the demo's drill come from the jar, identical to the checkout's files. */
class BundledTest {

  @TempDir Path dir;

  @Test
  void theBundledLabIsEveryFileOfFixturesLabAndAlertRulesByteForByte() throws IOException {
    Bundled.extractLab(dir);

    assertThat(names(dir.resolve(Bundled.LAB_DIR))).isEqualTo(names(Path.of("fixtures/lab")));
    assertThat(names(dir.resolve("alert-rules"))).isEqualTo(yml(Path.of("alert-rules")));
    for (String name : Bundled.LAB) {
      assertThat(dir.resolve(Bundled.LAB_DIR).resolve(name))
          .hasSameBinaryContentAs(Path.of("fixtures/lab", name));
    }
    for (String name : Bundled.ALERT_RULES) {
      assertThat(dir.resolve("alert-rules").resolve(name))
          .hasSameBinaryContentAs(Path.of("alert-rules", name));
    }
  }

  @Test
  void theBundledDemoDrillIsTheFixture() {
    assertThat(Bundled.extractDemoExperiment(dir))
        .hasSameBinaryContentAs(Path.of("fixtures/experiments", Bundled.DEMO_EXPERIMENT));
  }

  @Test
  void versionPrintsTheMavenProjectVersion() throws IOException {
    String pom = Files.readString(Path.of("pom.xml"));
    int start = pom.indexOf("<version>", pom.indexOf("<artifactId>firedrill-parent</artifactId>"));
    String version = pom.substring(start + "<version>".length(), pom.indexOf("</version>", start));

    CliRun run = CliRun.of("--version");

    assertThat(run.exit()).as(run.describe()).isZero();
    assertThat(run.out().strip()).isEqualTo("firedrill " + version);
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  private static List<String> yml(Path dir) throws IOException {
    return names(dir).stream().filter(n -> n.endsWith(".yml")).toList();
  }
}
