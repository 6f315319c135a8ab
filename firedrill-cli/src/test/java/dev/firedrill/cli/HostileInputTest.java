package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Experiment files a hostile user crafted (issue 22): each is one line naming the field and what is
 * allowed, exit 2, and nothing of the file reaches the terminal as a control character.
 */
class HostileInputTest {

  private static final Path FIXTURE = Path.of("fixtures/experiments/http-latency.yaml");

  @TempDir Path dir;

  private Path variant(String from, String to) throws IOException {
    String text = Files.readString(FIXTURE);
    assertThat(text).contains(from);
    return Files.writeString(dir.resolve("exp.yaml"), text.replace(from, to));
  }

  private CliRun validate(Path file) {
    CliRun run = CliRun.of("validate", file.toString());
    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    return run;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "106751991167301d",
        "9999999999999999h",
        "2635249153387078802w",
        "25269512340187042y"
      })
  void aDurationPastPrometheussRangeNamesTheFieldAndTheLargestAllowed(String ttl)
      throws IOException {
    Path file = variant("      ttl: 15m ", "      ttl: " + ttl + " ");
    assertThat(validate(file).err())
        .isEqualTo(
            file
                + ": /method/faults/0/ttl: expected a duration such as 500ms, 30s, 5m, 1h or 30d,"
                + " got \""
                + ttl
                + "\"; that is out of range (the largest duration allowed is 100y)"
                + " (line 27, column 7)\n");
  }

  @Test
  void aDurationAboveACenturyIsRefused() throws IOException {
    Path file = variant("      ttl: 15m ", "      ttl: 150y ");
    assertThat(validate(file).err())
        .isEqualTo(
            file
                + ": /method/faults/0/ttl: expected a duration of at most 100y (the largest"
                + " allowed), got \"150y\" (line 27, column 7)\n");
  }

  @Test
  void aTimeoutAboveAnHourIsRefused() throws IOException {
    Path file =
        variant(
            "  url: http://127.0.0.1:9090\n",
            "  url: http://127.0.0.1:9090\n  timeout: 900000000ms\n");
    assertThat(validate(file).err())
        .isEqualTo(
            file
                + ": /prometheus/timeout: expected a timeout of at most 1h (the largest allowed),"
                + " got \"900000000ms\" (line 10, column 3)\n");
  }

  @Test
  void escapesAndNewlinesInAKeyAreQuotedOnOneLine() throws IOException {
    Path file = variant("      ttl: 15m ", "      \"\\x1b[2J\\x1b[31mKE\\nY\": 1\n      ttl: 15m ");
    String err = validate(file).err();
    assertThat(err).doesNotContain("\u001b");
    assertThat(err.lines()).hasSize(1);
    assertThat(err).startsWith(file + ": /method/faults/0/\\x1b[2J\\x1b[31mKE\\nY: unknown key");
  }

  @Test
  void escapesInAValueAreQuoted() throws IOException {
    Path file = variant("id: payments-slow", "id: \"\\x1b]0;owned\\x07\\x1b[2Jpw\"");
    String err = validate(file).err();
    assertThat(err).doesNotContain("\u001b").doesNotContain("\u0007");
    assertThat(err.lines()).hasSize(1);
    assertThat(err).contains("got \"\\x1b]0;owned\\x07\\x1b[2Jpw\"");
  }

  @Test
  void aTokenPastedIntoAnEnvFieldIsRefusedWithoutEchoingIt() throws IOException {
    String token = "ghp_k3yAbcdefghijklmnop1234567890";
    Path file =
        variant("      # admin_token_env: PROXY_TOKEN", "      admin_token_env: " + token + " #");
    CliRun run = validate(file);
    assertThat(run.err())
        .contains("/method/faults/0/admin_token_env: expected the name of an environment variable")
        .doesNotContain(token)
        .doesNotContain("k3yAbc");
    assertThat(run.out()).doesNotContain("k3yAbc");
  }

  @Test
  void anEndlessFileIsRefusedBeforeItFillsTheHeap() {
    Path zero = Path.of("/dev/zero");
    Assumptions.assumeTrue(Files.exists(zero), "no /dev/zero here");
    CliRun run = validate(zero);
    assertThat(run.err())
        .isEqualTo("/dev/zero: /: cannot read: larger than 4 MiB (expected an experiment file)\n");
  }
}
