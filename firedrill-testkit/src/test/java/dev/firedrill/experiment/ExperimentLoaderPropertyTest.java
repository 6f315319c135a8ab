package dev.firedrill.experiment;

import dev.firedrill.testing.hostile.CleanOutcome;
import dev.firedrill.testing.hostile.Generator;
import dev.firedrill.testing.hostile.HostileInputs;
import dev.firedrill.testing.hostile.Properties;
import dev.firedrill.yaml.Problem;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The experiment loader on hostile text: each input is an experiment or problems, one line each
 * with its line and column; never a crash, a hang or the heap.
 */
class ExperimentLoaderPropertyTest {

  private static final CleanOutcome OUTCOME =
      new CleanOutcome("the experiment loader", Pattern.compile("\\(line \\d+, column \\d+\\)$"));

  /** The first try's seed, fixed so CI draws the same inputs; -Dhostile.seed=N overrides it. */
  private static final long SEED = 2204L;

  /** One file's text and the name it is loaded under (the name picks YAML or JSON). */
  record File(String text, String name) {}

  @Test
  void anyTextIsAnExperimentOrProblemsWithTheirPositions() {
    Generator<String> files = files();
    Generator<String> names = names();
    Properties.forEach(
        "the experiment loader",
        10_000,
        SEED,
        random -> new File(files.next(random), names.next(random)),
        file ->
            OUTCOME.check(
                file.text(),
                () -> {
                  try {
                    ExperimentLoader.load(file.name(), file.text());
                    return List.of();
                  } catch (ExperimentException e) {
                    return e.problems().stream().map(Problem::toString).toList();
                  }
                }));
  }

  Generator<String> files() {
    return HostileInputs.of(
        HostileInputs.texts(Path.of("fixtures/experiments"), Path.of("fixtures/bad")),
        new HostileInputs.Nesting("[", "1", "]"),
        true);
  }

  Generator<String> names() {
    return Generator.oneOf("drill.yaml", "drill.json", "drill");
  }

  @AfterAll
  static void report() {
    System.out.println(OUTCOME.summary());
    OUTCOME.close();
  }
}
