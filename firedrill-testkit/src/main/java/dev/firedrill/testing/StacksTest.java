package dev.firedrill.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StacksTest {

  @Test
  void versionsCompareByNumberNotByText() {
    assertThat(Stacks.compareVersions("prometheus_3.10.0", "prometheus_3.9.2")).isPositive();
    assertThat(Stacks.compareVersions("prometheus_3.5.3+ds1-6", "prometheus_3.5.3+ds1-7"))
        .isNegative();
    assertThat(Stacks.compareVersions("x_1.2", "x_1.2")).isZero();
  }

  @Test
  void theCurrentPairIsPrometheus3AndAlertmanager03x() throws Exception {
    Stacks.Pair pair = Stacks.current();
    assertThat(version(pair.prometheus())).startsWith("prometheus, version 3.");
    assertThat(version(pair.promtool())).startsWith("promtool, version 3.");
    assertThat(version(pair.alertmanager())).startsWith("alertmanager, version 0.3");
    assertThat(version(pair.amtool())).startsWith("amtool, version 0.3");
  }

  @Test
  void theStablePairIsPrometheus2AndAlertmanager025() throws Exception {
    Stacks.Pair pair = Stacks.stable();
    assertThat(version(pair.prometheus())).startsWith("prometheus, version 2.");
    assertThat(version(pair.alertmanager())).startsWith("alertmanager, version 0.2");
  }

  @Test
  void victoriaMetricsShipsItsThreeBinaries() {
    Stacks.VictoriaMetrics vm = Stacks.victoriaMetrics();
    assertThat(List.of(vm.victoriaMetrics(), vm.vmalert(), vm.vmauth()))
        .allSatisfy(p -> assertThat(p).isExecutable());
  }

  private static String version(Path binary) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
    return out.strip();
  }
}
