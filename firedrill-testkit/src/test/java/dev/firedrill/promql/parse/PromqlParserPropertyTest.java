package dev.firedrill.promql.parse;

import dev.firedrill.format.ControlChars;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.testing.hostile.CleanOutcome;
import dev.firedrill.testing.hostile.Generator;
import dev.firedrill.testing.hostile.HostileInputs;
import dev.firedrill.testing.hostile.Properties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The PromQL parser, in both syntaxes, on hostile queries: a tree, or Prometheus's one-line error
 * starting {@code LINE:COLUMN:}; never another exception, a hang or the heap.
 */
class PromqlParserPropertyTest {

  private static final CleanOutcome OUTCOME =
      new CleanOutcome("the PromQL parser", Pattern.compile("^\\d+:\\d+: "));

  /** The first try's seed, fixed so CI draws the same inputs; -Dhostile.seed=N overrides it. */
  private static final long SEED = 2203L;

  /** One query and the syntax it is parsed in. */
  record Query(String text, PromqlParser.Syntax syntax) {}

  @Test
  void anyQueryIsATreeOrAPositionedError() {
    Generator<String> queries = queries();
    Generator<PromqlParser.Syntax> syntaxes = syntaxes();
    Properties.forEach(
        "the PromQL parser",
        10_000,
        SEED,
        random -> new Query(queries.next(random), syntaxes.next(random)),
        query ->
            OUTCOME.check(
                query.text(),
                () -> {
                  try {
                    PromqlParser.parse(query.text(), query.syntax());
                    return List.of();
                  } catch (PromqlException e) {
                    // The wording is Prometheus's, the query's text raw in it; every caller
                    // prints it through Problem or ControlChars, which quote control characters.
                    return List.of(ControlChars.quote(String.valueOf(e.getMessage())));
                  }
                }));
  }

  Generator<String> queries() {
    return HostileInputs.of(realQueries(), new HostileInputs.Nesting("(", "up", ")"), false);
  }

  Generator<PromqlParser.Syntax> syntaxes() {
    return Generator.oneOf(PromqlParser.Syntax.values());
  }

  /** The queries of the experiment fixtures and the lab's alerting rules. */
  static List<String> realQueries() {
    List<String> queries = new ArrayList<>();
    Pattern oneLine = Pattern.compile("(?m)^\\s*-?\\s*(?:query|expr): ['\"]?(.+?)['\"]?\\s*$");
    for (String text :
        HostileInputs.texts(Path.of("fixtures/experiments"), Path.of("alert-rules"))) {
      Matcher m = oneLine.matcher(text);
      while (m.find()) {
        if (!m.group(1).equals("|")) {
          queries.add(m.group(1));
        }
      }
    }
    queries.add(
        "histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job=\"checkout\"}[5m])))"
            + " > on() group_left() vector(0.5) offset 1h @ 1700000000");
    queries.add(
        "label_replace(up, \"a\", \"$1\", \"b\", \"(.*)\") unless absent_over_time(x[5m:30s])");
    queries.add(
        "{\"utf8.name\", job=~\"a|b\"} - ignoring(x) -1e3 ^ 2 % 3 and count_values(\"v\", y)");
    if (queries.size() < 5 || !Files.isDirectory(Path.of("alert-rules"))) {
      throw new IllegalStateException("expected the fixtures' queries; run from the checkout");
    }
    return queries;
  }

  @AfterAll
  static void report() {
    System.out.println(OUTCOME.summary());
    OUTCOME.close();
  }
}
