package dev.firedrill.promql.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

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
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every query of Prometheus v2.42.0's own PromQL test files (read in place from {@code
 * ../shared/promqltest/}, never copied) parses; an {@code eval_fail} query may instead be a parse
 * error, and the test prints which of the two it is.
 */
class PromqlTestFilesParseTest {

  // Prometheus's own pattern for an evaluation command (promql/test.go at v2.42.0).
  private static final Pattern EVAL =
      Pattern.compile("^eval(?:_(fail|ordered))?\\s+instant\\s+(?:at\\s+(.+?))?\\s+(.+)$");

  record Case(String where, boolean mustFail, String query) {}

  @TestFactory
  Stream<DynamicTest> everyQueryParses() throws IOException {
    return cases().stream()
        .map(
            c ->
                DynamicTest.dynamicTest(
                    c.where() + ": " + c.query(),
                    () -> {
                      if (!c.mustFail()) {
                        assertThatCode(() -> PromqlParser.parse(c.query()))
                            .doesNotThrowAnyException();
                        return;
                      }
                      try {
                        PromqlParser.parse(c.query());
                        System.out.println(
                            c.where()
                                + ": eval_fail parses, so it must fail at evaluation: "
                                + c.query());
                      } catch (PromqlException e) {
                        assertThat(e.errorType()).isEqualTo(PromqlException.ErrorType.BAD_DATA);
                        System.out.println(
                            c.where()
                                + ": eval_fail is a parse error ("
                                + e.getMessage()
                                + "): "
                                + c.query());
                      }
                    }));
  }

  @Test
  void everyEvalLineIsReadAsACase() throws IOException {
    List<Case> cases = cases();
    long evalLines = 0;
    for (Path file : testFiles()) {
      evalLines +=
          Files.readAllLines(file).stream().filter(l -> l.trim().startsWith("eval")).count();
    }

    assertThat(evalLines).isPositive();
    assertThat(cases).hasSize((int) evalLines);
  }

  private static List<Case> cases() throws IOException {
    List<Case> cases = new ArrayList<>();
    for (Path file : testFiles()) {
      List<String> lines = Files.readAllLines(file);
      for (int i = 0; i < lines.size(); i++) {
        Matcher m = EVAL.matcher(lines.get(i).trim());
        if (m.matches()) {
          cases.add(
              new Case(file.getFileName() + ":" + (i + 1), "fail".equals(m.group(1)), m.group(3)));
        }
      }
    }
    return cases;
  }

  private static List<Path> testFiles() throws IOException {
    Path dir = PromqlTestData.directory("prometheus-v2.42.0");
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".test")).sorted().toList();
    }
  }
}
