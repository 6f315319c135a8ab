package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * validate refuses what plan refuses from the file alone (no network: the fixture's proxy and
 * Prometheus are never asked), and parses every PromQL query.
 */
class ValidateCommandTest {

  private static final Path FIXTURE = Path.of("fixtures/experiments/http-latency.yaml");

  @TempDir Path dir;

  /** The fixture with {@code from} replaced by {@code to}. */
  private Path variant(String from, String to) throws IOException {
    String text = Files.readString(FIXTURE);
    assertThat(text).contains(from);
    return Files.writeString(dir.resolve("exp.yaml"), text.replace(from, to));
  }

  private static void assertRefused(Path file, String... refusals) {
    CliRun run = CliRun.of("validate", file.toString());
    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    StringBuilder expected = new StringBuilder();
    for (String refusal : refusals) {
      expected.append(file).append(": refused: ").append(refusal).append('\n');
    }
    assertThat(run.err()).isEqualTo(expected.toString());
    CliRun plan = CliRun.of("plan", file.toString());
    assertThat(plan.exit()).as(plan.describe()).isEqualTo(2);
    for (String refusal : refusals) {
      assertThat(plan.out()).as("plan refuses it too").contains("refused: " + refusal + "\n");
    }
  }

  @Test
  void theFixtureIsValid() {
    CliRun run = CliRun.of("validate", FIXTURE.toString());
    assertThat(run.exit()).as(run.describe()).isZero();
  }

  @Test
  void aMissingTtl() throws IOException {
    assertRefused(
        variant("      ttl: 15m ", "      # no ttl "),
        "method.faults[0] (http-latency): http-latency: no ttl; every fault needs a ttl that the injector enforces"
            + " on its own: add ttl: 15m (at least the method's 10m, at most blast_radius"
            + " max_duration 15m)");
  }

  @Test
  void aTtlShorterThanTheMethod() throws IOException {
    assertRefused(
        variant("      ttl: 15m ", "      ttl: 5m "),
        "method.faults[0] (http-latency): http-latency: ttl 5m is shorter than the method duration 10m; expected a"
            + " ttl of at least 10m");
  }

  @Test
  void aTtlLongerThanTheBlastRadius() throws IOException {
    assertRefused(
        variant("      ttl: 15m ", "      ttl: 1h "),
        "method.faults[0] (http-latency): http-latency: ttl 1h is longer than blast_radius max_duration 15m;"
            + " expected a ttl of at most 15m");
  }

  @Test
  void anIntervalLongerThanTheMethod() throws IOException {
    assertRefused(
        variant("  interval: 5s", "  interval: 11m"),
        "steady_state.interval 11m is longer than method.duration 10m: no measurement would be taken while the"
            + " faults are on");
  }

  @Test
  void aShareAboveTheTrafficShare() throws IOException {
    assertRefused(
        variant("      share: 0.05 ", "      share: 0.2  "),
        "method.faults[0] (http-latency): http-latency: share 20% of requests exceeds blast_radius traffic_share 5%;"
            + " expected a share of at most 0.05 (\"5%\")");
  }

  @Test
  void aPromqlSyntaxErrorInAnSliNamesTheField() throws IOException {
    assertRefused(
        variant("/ sum(rate(http_requests_total[1m]))", "/ sum(rate(http_requests_total[1m])"),
        "steady_state.slis[0].query (error_ratio): not valid PromQL: 1:84: parse error: unclosed left parenthesis");
  }

  @Test
  void prometheus3QueriesAreValid() throws IOException {
    Path file =
        variant(
            "/ sum(rate(http_requests_total[1m]))", "/ sum(rate({\"http.requests.total\"}[60]))");
    CliRun run = CliRun.of("validate", file.toString());
    assertThat(run.exit()).as(run.describe()).isZero();
  }

  @Test
  void aPromqlSyntaxErrorInTheBurnRateGuardNamesTheField() throws IOException {
    assertRefused(
        variant("    max: 14.4", "    max: 14.4\n    remaining_budget: slo:budget_remaining{"),
        "abort.burn_rate.remaining_budget: not valid PromQL: 1:22: parse error: unexpected end of input inside"
            + " braces");
  }

  @Test
  void theBarePercentFixtureIsRefusedWithBothReadings() {
    CliRun run = CliRun.of("validate", "fixtures/bad/bare-percent.yaml");
    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "fixtures/bad/bare-percent.yaml: /method/faults/0/percent: a bare number is"
                + " ambiguous here: every share is a fraction (0.2 is 20%) or a percentage string; did you mean share: 0.2"
                + " (20% of the requests) or \"0.2%\"? (line 22, column 7)\n");
  }
}
