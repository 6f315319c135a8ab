package dev.firedrill.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.testing.Stacks;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * alert-rules/ as Prometheus reads it, with promtool of both stacks (the stable 2.42 and 3.5):
 * promtool check rules on every file, promtool test rules on the tests; and the Prometheus 3
 * fixtures of the linter's tests as promtool 3.5 reads them.
 */
class AlertRulesPromtoolTest {

  private static final Path RULES = Path.of("alert-rules");
  private static final Path PROMETHEUS_3_FIXTURES = Path.of("fixtures/testdata/rules/prometheus3");

  /**
   * The promtool of a stack: "2.42" the system's, "3.5" the one bin/install-deps --tests unpacks.
   */
  static Path promtool(String stack) {
    return stack.equals("2.42") ? Stacks.stable().promtool() : Stacks.current().promtool();
  }

  private static List<String> yamlFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(Path::toString)
          .filter(f -> f.endsWith(".yml") || f.endsWith(".yaml"))
          .sorted()
          .toList();
    }
  }

  private record Run(int exit, String output) {}

  private static Run run(List<String> command, int seconds)
      throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] output = process.getInputStream().readAllBytes();
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(
          String.join(" ", command) + " did not finish within " + seconds + " s");
    }
    return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
  }

  private static String succeed(List<String> command, int seconds)
      throws IOException, InterruptedException {
    Run run = run(command, seconds);
    assertThat(run.exit()).as("%s said:%n%s", String.join(" ", command), run.output()).isZero();
    return run.output();
  }

  @ParameterizedTest(name = "promtool {0}")
  @ValueSource(strings = {"2.42", "3.5"})
  void promtoolChecksEveryRuleFile(String stack) throws Exception {
    Path promtool = promtool(stack);
    List<String> files = yamlFiles(RULES);
    assertThat(files).contains("alert-rules/lab-alerts.yml", "alert-rules/checkout-slo.yml");
    for (String file : files) {
      String output = succeed(List.of(promtool.toString(), "check", "rules", file), 30);
      assertThat(output).as(file).contains("SUCCESS");
    }
  }

  @ParameterizedTest(name = "promtool {0}")
  @ValueSource(strings = {"2.42", "3.5"})
  void promtoolUnitTestsOfTheRulesPass(String stack) throws Exception {
    Path promtool = promtool(stack);
    List<String> tests = yamlFiles(RULES.resolve("tests"));
    assertThat(tests).hasSizeGreaterThanOrEqualTo(5);
    List<String> command = new ArrayList<>(List.of(promtool.toString(), "test", "rules"));
    command.addAll(tests);
    String output = succeed(command, 180);
    assertThat(output).doesNotContain("FAILED");
    assertThat(output.split("SUCCESS", -1)).hasSize(tests.size() + 1);
  }

  @Test
  void promtool35AcceptsThePrometheus3FixtureThat242Refuses() throws Exception {
    String fixture = PROMETHEUS_3_FIXTURES.resolve("utf8-and-bare-numbers.yml").toString();
    assertThat(succeed(List.of(promtool("3.5").toString(), "check", "rules", fixture), 30))
        .contains("SUCCESS: 4 rules found");
    Run old = run(List.of(promtool("2.42").toString(), "check", "rules", fixture), 30);
    assertThat(old.exit()).isNotZero();
    assertThat(old.output()).contains("invalid recording rule name: checkout.error_ratio:rate5m");
  }

  @Test
  void promtool35RefusesTheExperimentalFixtureItCannotEnable() throws Exception {
    // promtool 3.5's --enable-feature knows only promql-experimental-functions and
    // promql-delayed-name-removal,
    // so the duration expressions (3.4), anchored/smoothed (3.7) and fill (3.10) of this fixture
    // stay refused.
    String fixture = PROMETHEUS_3_FIXTURES.resolve("experimental.yml").toString();
    Run run = run(List.of(promtool("3.5").toString(), "check", "rules", fixture), 30);
    assertThat(run.exit()).isNotZero();
    assertThat(run.output())
        .contains(
            "parse error: experimental duration expression is not enabled",
            "unknown function with name \"holt_winters\"");
  }
}
