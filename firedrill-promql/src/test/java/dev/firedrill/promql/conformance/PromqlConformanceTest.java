package dev.firedrill.promql.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.promql.eval.Compat;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every case of Prometheus v2.42.0's own PromQL test files must pass, but those listed in {@code
 * promql-conformance-exclusions.txt} ({@code file:line reason}).
 */
class PromqlConformanceTest {

  @TestFactory
  List<DynamicTest> prometheusV242() throws IOException {
    Path dir = Conformance.directory("prometheus-v2.42.0");
    Map<String, String> exclusions = exclusions();
    Set<String> cases = new HashSet<>();
    List<DynamicTest> tests = new ArrayList<>();
    int passed = 0;
    for (Path file : Conformance.files(dir)) {
      for (Conformance.Outcome o : Conformance.run(file, Compat.PROMETHEUS_2)) {
        String key = o.eval().file() + ":" + o.eval().line();
        cases.add(key);
        String reason = exclusions.get(key);
        if (o.failure() == null) {
          passed++;
        }
        tests.add(
            DynamicTest.dynamicTest(
                o.eval().name(),
                () -> {
                  if (reason != null) {
                    Assumptions.abort("excluded: " + reason);
                  }
                  assertThat(o.failure()).as(o.eval().name()).isNull();
                }));
      }
    }
    System.out.printf(
        "PromQL conformance prometheus-v2.42.0: %d/%d cases pass%n", passed, tests.size());
    tests.add(
        DynamicTest.dynamicTest(
            "every exclusion names a case",
            () -> assertThat(cases).containsAll(exclusions.keySet())));
    return tests;
  }

  private static Map<String, String> exclusions() throws IOException {
    Map<String, String> exclusions = new HashMap<>();
    try (InputStream in =
        PromqlConformanceTest.class.getResourceAsStream("/promql-conformance-exclusions.txt")) {
      if (in == null) {
        return exclusions;
      }
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        String l = line.trim();
        if (l.isEmpty() || l.startsWith("#")) {
          continue;
        }
        String[] parts = l.split("\\s+", 2);
        exclusions.put(parts[0], parts.length > 1 ? parts[1] : "");
      }
    }
    return exclusions;
  }
}
