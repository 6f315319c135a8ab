package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SuiteCommandTest {

  @TempDir Path dir;

  @Test
  void aBrokenSuiteIsExitTwoWithEveryProblemOnItsOwnLineAndNoStackTrace() throws Exception {
    Path suite =
        Files.writeString(
            dir.resolve("suite.yaml"),
            "id: q\ncooldown: later\nexperiments: [missing.yaml]\ndefaults: {method: {}}\n");

    CliRun run = CliRun.of("suite", suite.toString());

    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.err())
        .contains(suite + ": /cooldown: expected a duration such as")
        .contains(suite + ": /defaults/method: not a shared section")
        .contains(suite + ": /experiments/0: no such file or directory")
        .doesNotContain("\tat ");
    assertThat(run.out()).isEmpty();
  }
}
