package dev.firedrill.experiment;

import dev.firedrill.testing.hostile.CleanOutcome;
import dev.firedrill.testing.hostile.HostileInputs;
import dev.firedrill.yaml.Problem;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The experiment loader on hostile text: each input is an experiment or problems, one line each
 * with its line and column; never a crash, a hang or the heap.
 */
class ExperimentLoaderPropertyTest {

  private static final CleanOutcome OUTCOME =
      new CleanOutcome("the experiment loader", Pattern.compile("\\(line \\d+, column \\d+\\)$"));

  @Property(tries = 10_000, shrinking = ShrinkingMode.OFF)
  void anyTextIsAnExperimentOrProblemsWithTheirPositions(
      @ForAll("files") String text, @ForAll("names") String name) {
    OUTCOME.check(
        text,
        () -> {
          try {
            ExperimentLoader.load(name, text);
            return List.of();
          } catch (ExperimentException e) {
            return e.problems().stream().map(Problem::toString).toList();
          }
        });
  }

  @Provide
  Arbitrary<String> files() {
    return HostileInputs.of(
        HostileInputs.texts(Path.of("fixtures/experiments"), Path.of("fixtures/bad")),
        new HostileInputs.Nesting("[", "1", "]"),
        true);
  }

  @Provide
  Arbitrary<String> names() {
    return net.jqwik.api.Arbitraries.of("drill.yaml", "drill.json", "drill");
  }

  @AfterContainer
  static void report() {
    System.out.println(OUTCOME.summary());
    OUTCOME.close();
  }
}
