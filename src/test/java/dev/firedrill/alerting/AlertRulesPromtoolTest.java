package dev.firedrill.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.testing.RequiredBinary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** alert-rules/ as Prometheus reads it: promtool check rules on every file, promtool test rules on the tests. */
class AlertRulesPromtoolTest {

  private static final Path RULES = Path.of("alert-rules");

  private static List<String> yamlFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(Path::toString).filter(f -> f.endsWith(".yml") || f.endsWith(".yaml")).sorted().toList();
    }
  }

  private static String run(List<String> command, int seconds) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] output = process.getInputStream().readAllBytes();
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not finish within " + seconds + " s");
    }
    String text = new String(output, StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as("%s said:%n%s", String.join(" ", command), text).isZero();
    return text;
  }

  @Test
  void promtoolChecksEveryRuleFile() throws Exception {
    Path promtool = RequiredBinary.find("promtool", "FIREDRILL_PROMTOOL", "prometheus");
    List<String> files = yamlFiles(RULES);
    assertThat(files).contains("alert-rules/lab-alerts.yml", "alert-rules/checkout-slo.yml");
    for (String file : files) {
      String output = run(List.of(promtool.toString(), "check", "rules", file), 30);
      assertThat(output).as(file).contains("SUCCESS");
    }
  }

  @Test
  void promtoolUnitTestsOfTheRulesPass() throws Exception {
    Path promtool = RequiredBinary.find("promtool", "FIREDRILL_PROMTOOL", "prometheus");
    List<String> tests = yamlFiles(RULES.resolve("tests"));
    assertThat(tests).hasSizeGreaterThanOrEqualTo(5);
    List<String> command = new ArrayList<>(List.of(promtool.toString(), "test", "rules"));
    command.addAll(tests);
    String output = run(command, 180);
    assertThat(output).doesNotContain("FAILED");
    assertThat(output.split("SUCCESS", -1)).hasSize(tests.size() + 1);
  }
}
