package dev.firedrill.promql.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.promql.eval.Compat;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Prometheus v3.14.0's own PromQL test files in Prometheus 3 mode: every case passes but those
 * listed in {@code promql-v3-exclusions.txt} ({@code file:line reason}), so a case that passes
 * cannot regress unnoticed. An excluded case that passes fails too (remove its line): the list only
 * shrinks. Cases needing native histograms, which the engine refuses by design, are listed with
 * that reason and counted apart. {@code -Dpromql.v3.writeExclusions=FILE} writes today's list with
 * a reason per case, to review before replacing the resource.
 */
class PromqlV3ConformanceTest {

  static final String NATIVE = "native histograms (out of scope: refused by name)";

  @TestFactory
  List<DynamicTest> prometheusV314() throws IOException {
    Path dir = Conformance.directory("prometheus-v3.14.0");
    Map<String, String> exclusions = exclusions();
    Set<String> cases = new HashSet<>();
    List<DynamicTest> tests = new ArrayList<>();
    Map<String, String> today = new LinkedHashMap<>();
    int passed = 0;
    int total = 0;
    int histogramCases = 0;
    for (Path file : Conformance.files(dir)) {
      int filePassed = 0;
      List<Conformance.Outcome> outcomes = Conformance.run(file, Compat.PROMETHEUS_3);
      for (Conformance.Outcome o : outcomes) {
        String key = o.key();
        cases.add(key);
        if (o.failure() == null) {
          filePassed++;
        } else {
          today.put(key, o.nativeHistograms() ? NATIVE : "not yet: " + oneLine(o.failure()));
          histogramCases += o.nativeHistograms() ? 1 : 0;
        }
        String reason = exclusions.get(key);
        tests.add(
            DynamicTest.dynamicTest(
                o.eval().name(),
                () -> {
                  if (reason != null) {
                    assertThat(o.failure())
                        .as(key + " passes now: remove it from promql-v3-exclusions.txt")
                        .isNotNull();
                    Assumptions.abort("excluded: " + reason);
                  }
                  assertThat(o.failure()).as(o.eval().name()).isNull();
                }));
      }
      System.out.printf(
          "prometheus-v3.14.0 %-28s %4d/%4d%n", file.getFileName(), filePassed, outcomes.size());
      passed += filePassed;
      total += outcomes.size();
    }
    System.out.printf(
        "PromQL conformance prometheus-v3.14.0 (mode 3): %d/%d cases pass (%.1f%%); of the %d"
            + " failing, %d need native histograms%n",
        passed, total, 100.0 * passed / total, total - passed, histogramCases);
    String out = System.getProperty("promql.v3.writeExclusions");
    if (out != null) {
      StringBuilder text = new StringBuilder();
      today.forEach((k, r) -> text.append(k).append(' ').append(r).append('\n'));
      Files.writeString(Path.of(out), text.toString());
    }
    tests.add(
        DynamicTest.dynamicTest(
            "every exclusion names a case",
            () -> assertThat(cases).containsAll(exclusions.keySet())));
    tests.add(
        DynamicTest.dynamicTest(
            "docs/promql-v3-exceptions.md names every exclusion",
            () -> {
              String page = Files.readString(Path.of("docs/promql-v3-exceptions.md"));
              assertThat(exclusions.keySet())
                  .as("exclusions missing from docs/promql-v3-exceptions.md")
                  .allMatch(key -> page.contains("`" + key + "`"));
            }));
    return tests;
  }

  private static String oneLine(String failure) {
    String line = failure.replaceAll("\\s+", " ");
    return line.length() > 140 ? line.substring(0, 140) + "..." : line;
  }

  private static Map<String, String> exclusions() throws IOException {
    Map<String, String> exclusions = new LinkedHashMap<>();
    try (InputStream in =
        PromqlV3ConformanceTest.class.getResourceAsStream("/promql-v3-exclusions.txt")) {
      assertThat(in).as("promql-v3-exclusions.txt on the test classpath").isNotNull();
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
