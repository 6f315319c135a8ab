package dev.firedrill.lab.stack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.testing.RequiredBinary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The lab's files as the real tools read them: promtool and amtool from Debian's packages. */
class LabConfigTest {

  private static final Path LAB = Path.of("fixtures/lab");

  private static String run(List<String> command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not finish within 30 s");
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as("%s said:%n%s", String.join(" ", command), output).isZero();
    return output;
  }

  @Test
  void promtoolAcceptsThePrometheusConfigWithItsRuleFiles() throws Exception {
    Path promtool = RequiredBinary.find("promtool", "FIREDRILL_PROMTOOL", "prometheus");
    String output =
        run(
            List.of(
                promtool.toString(), "check", "config", LAB.resolve("prometheus.yml").toString()));
    assertThat(output).contains("SUCCESS: 3 rule files found");
  }

  @Test
  void promtoolAcceptsTheRecordingAndAlertingRules() throws Exception {
    Path promtool = RequiredBinary.find("promtool", "FIREDRILL_PROMTOOL", "prometheus");
    String output =
        run(
            List.of(
                promtool.toString(),
                "check",
                "rules",
                LAB.resolve("recording-rules.yml").toString(),
                "alert-rules/lab-alerts.yml",
                "alert-rules/checkout-slo.yml"));
    assertThat(output)
        .contains("SUCCESS: 9 rules found")
        .contains("SUCCESS: 8 rules found")
        .contains("SUCCESS: 19 rules found");
  }

  @Test
  void amtoolAcceptsTheAlertmanagerConfig() throws Exception {
    Path amtool = RequiredBinary.find("amtool", "FIREDRILL_AMTOOL", "prometheus-alertmanager");
    String output =
        run(List.of(amtool.toString(), "check-config", LAB.resolve("alertmanager.yml").toString()));
    assertThat(output).contains("SUCCESS").contains(" - 3 receivers");
  }

  @Test
  void rewritingMovesEveryDefaultPortAndNothingElse() {
    LabPorts free = new LabPorts(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);
    String text =
        "a: 127.0.0.1:18080 b: http://127.0.0.1:18474/proxies c: 127.0.0.1:180801 d: 10.0.0.1:18080 "
            + "e: ['127.0.0.1:19093'] f: ['127.0.0.1:18092'] g: http://127.0.0.1:18475 h: {listen: 127.0.0.1:19466}";
    assertThat(free.rewrite(text))
        .isEqualTo(
            "a: 127.0.0.1:1 b: http://127.0.0.1:6/proxies c: 127.0.0.1:180801"
                + " d: 10.0.0.1:18080 e: ['127.0.0.1:10'] f: ['127.0.0.1:12'] g: http://127.0.0.1:13 h: {listen: 127.0.0.1:14}");
  }

  @Test
  void everyPortHasOneNameAndTheDefaultsAreDistinct() {
    LabPorts defaults = LabPorts.defaults();
    assertThat(defaults.byName()).hasSize(LabPorts.class.getRecordComponents().length);
    assertThat(defaults.byName().values()).doesNotHaveDuplicates();
    assertThat(defaults.byName())
        .containsEntry("payments metrics proxy", 18092)
        .containsEntry("metrics proxy admin", 18475)
        .containsEntry("firedrill metrics", 19466);
  }

  @Test
  void freePortsAreDistinct() {
    for (int round = 0; round < 20; round++) {
      assertThat(LabPorts.free().byName().values()).doesNotHaveDuplicates().hasSize(14);
    }
  }
}
