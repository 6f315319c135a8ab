package dev.firedrill.alerting.routes;

import dev.firedrill.testing.hostile.CleanOutcome;
import dev.firedrill.testing.hostile.HostileInputs;
import dev.firedrill.yaml.Problem;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The route-tree loader, in every dialect, on hostile alertmanager.yml files: a tree, or problems,
 * one line each with its line and column.
 */
class RouteTreePropertyTest {

  private static final CleanOutcome OUTCOME =
      new CleanOutcome("the route-tree loader", Pattern.compile("\\(line \\d+, column \\d+\\)$"));

  @Property(tries = 10_000, shrinking = ShrinkingMode.OFF)
  void anyFileIsATreeOrProblemsWithTheirPositions(
      @ForAll("files") String text, @ForAll("dialects") RouteDialect dialect) {
    OUTCOME.check(
        text,
        () -> {
          try {
            RouteTree.parse("alertmanager.yml", text, dialect);
            return List.of();
          } catch (RouteConfigException e) {
            return e.problems().stream().map(Problem::toString).toList();
          }
        });
  }

  @Provide
  Arbitrary<String> files() {
    return HostileInputs.of(
        HostileInputs.texts(
            Path.of("fixtures/testdata/routes"), Path.of("fixtures/lab/alertmanager.yml")),
        new HostileInputs.Nesting("{routes: [", "{receiver: x}", "]}"),
        true);
  }

  @Provide
  Arbitrary<RouteDialect> dialects() {
    return Arbitraries.of(MatcherSyntax.class)
        .flatMap(
            m ->
                Arbitraries.of(
                    RouteDialect.CURRENT.withMatchers(m), RouteDialect.V0_25.withMatchers(m)));
  }

  @AfterContainer
  static void report() {
    System.out.println(OUTCOME.summary());
    OUTCOME.close();
  }
}
