package dev.firedrill.promql.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.promql.eval.Compat;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Prometheus v3.14.0's test files, whose semantics differ from v2.42's in places (left-open ranges,
 * new functions): the pass rate is reported, not enforced. A case the runner cannot read counts as
 * failing; only a crash of the runner fails this test.
 */
class PromqlV3PassRateTest {

  @Test
  void reportsPassRateOfPrometheusV314() throws IOException {
    Path dir = Conformance.directory("prometheus-v3.14.0");
    int passed = 0;
    int total = 0;
    for (Path file : Conformance.files(dir)) {
      List<Conformance.Outcome> outcomes = Conformance.run(file, Compat.PROMETHEUS_3);
      long ok = outcomes.stream().filter(o -> o.failure() == null).count();
      System.out.printf(
          "prometheus-v3.14.0 %-28s %4d/%4d%n", file.getFileName(), ok, outcomes.size());
      if (Boolean.getBoolean("promql.v3.details")) {
        outcomes.stream()
            .filter(o -> o.failure() != null)
            .forEach(o -> System.out.println("  FAIL " + o.eval().name() + ": " + o.failure()));
      }
      passed += (int) ok;
      total += outcomes.size();
    }
    System.out.printf(
        "PromQL conformance prometheus-v3.14.0: %d/%d cases pass (%.1f%%)%n",
        passed, total, total == 0 ? 0.0 : 100.0 * passed / total);
    assertThat(total).as("cases read from " + dir).isPositive();
  }
}
