package dev.firedrill.promql.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.testing.PromqlTestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every query Prometheus v3.14.0's own test files expect to evaluate, parsed by the PROMETHEUS_3
 * syntax. What it refuses must be one of the features it leaves out, all newer than 3.10: step(),
 * range(), start(), end(), min_of() and max_of() as functions of an expression,
 * histogram_quantiles(), start_timestamp(), and the trim operators {@code </} and {@code >/}.
 */
class Prometheus3TestFilesParseTest {

  private static final Pattern LEFT_OUT =
      Pattern.compile(
          "(?:^|[^_a-z])(?:step|range|start|end|min_of|max_of)\\(|histogram_quantiles\\(|start_timestamp\\(|[<>]/");

  private static final Pattern EVAL =
      Pattern.compile(
          "^eval(?:_ordered|_warn|_info)?\\s+(?:instant\\s+at\\s+\\S+|range\\s+from\\s+\\S+\\s+to\\s+\\S+\\s+step\\s+\\S+)\\s+(.+)$");

  @Test
  void parsesTheQueriesOfPrometheus314sTestFiles() throws IOException {
    Path dir = PromqlTestData.directory("prometheus-v3.14.0");
    List<String> refused = new ArrayList<>();
    int total = 0;
    int leftOut = 0;
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".test")).sorted().toList()) {
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
          Matcher m = EVAL.matcher(lines.get(i).strip());
          boolean fails =
              i + 1 < lines.size() && lines.get(i + 1).strip().startsWith("expect fail");
          if (!m.matches() || fails) {
            continue;
          }
          total++;
          try {
            PromqlParser.parse(m.group(1), PromqlParser.Syntax.PROMETHEUS_3);
          } catch (PromqlException e) {
            if (!LEFT_OUT.matcher(m.group(1)).find()) {
              refused.add(
                  file.getFileName() + ":" + (i + 1) + ": " + m.group(1) + " -> " + e.getMessage());
            }
            leftOut++;
          }
        }
      }
    }
    System.out.printf(
        "PROMETHEUS_3 syntax: %d/%d queries of prometheus-v3.14.0 parse%n", total - leftOut, total);
    assertThat(total).isPositive();
    assertThat(refused).as("refused, and not a feature the syntax leaves out").isEmpty();
  }

  /**
   * The Prometheus 3 syntax reads everything v2.42's reads: every query of v2.42's test files that
   * v2.42 parses.
   */
  @Test
  void readsEveryQueryV242Reads() throws IOException {
    Path dir = PromqlTestData.directory("prometheus-v2.42.0");
    List<String> refused = new ArrayList<>();
    int total = 0;
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".test")).sorted().toList()) {
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
          Matcher m =
              Pattern.compile("^eval(?:_ordered|_fail)?\\s+instant\\s+at\\s+\\S+\\s+(.+)$")
                  .matcher(lines.get(i).strip());
          if (!m.matches()) {
            continue;
          }
          try {
            PromqlParser.parse(m.group(1));
          } catch (PromqlException e) {
            continue; // v2.42 refuses it: nothing to compare
          }
          total++;
          try {
            PromqlParser.parse(m.group(1), PromqlParser.Syntax.PROMETHEUS_3);
          } catch (PromqlException e) {
            refused.add(
                file.getFileName() + ":" + (i + 1) + ": " + m.group(1) + " -> " + e.getMessage());
          }
        }
      }
    }
    assertThat(total).isGreaterThan(500);
    assertThat(refused).isEmpty();
  }
}
