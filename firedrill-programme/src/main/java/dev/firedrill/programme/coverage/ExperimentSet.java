package dev.firedrill.programme.coverage;

import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.ExperimentException;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.format.IoReasons;
import dev.firedrill.programme.suite.SuiteException;
import dev.firedrill.programme.suite.SuiteLoader;
import dev.firedrill.yaml.Problem;
import dev.firedrill.yaml.SourceTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The experiments coverage credits with drilling an alert: a suite file's (defaults merged), a
 * directory's experiment files, or one experiment file; every problem of every file at once.
 */
public final class ExperimentSet {

  private static final SourceTree.Options READING =
      new SourceTree.Options(true, true, SourceTree.Scalars.TYPED, true);

  private ExperimentSet() {}

  public static List<Experiment> read(List<Path> paths) throws SuiteException {
    List<Experiment> experiments = new ArrayList<>();
    List<Problem> problems = new ArrayList<>();
    for (Path path : paths) {
      try {
        if (Files.isDirectory(path)) {
          for (Path file : files(path)) {
            experiments.add(experiment(file, problems));
          }
        } else if (isSuite(path)) {
          SuiteLoader.load(path).entries().forEach(e -> experiments.add(e.experiment()));
        } else {
          experiments.add(experiment(path, problems));
        }
      } catch (SuiteException e) {
        problems.addAll(e.problems());
      } catch (IOException e) {
        problems.add(new Problem(path.toString(), "", "cannot read: " + IoReasons.of(e), 0, 0));
      }
    }
    if (!problems.isEmpty()) {
      throw new SuiteException(problems);
    }
    return experiments.stream().filter(e -> e != null).toList();
  }

  private static Experiment experiment(Path file, List<Problem> problems) {
    try {
      return ExperimentLoader.load(file);
    } catch (ExperimentException e) {
      problems.addAll(e.problems());
      return null;
    }
  }

  /** A suite file names its experiments; an experiment file has a method instead. */
  private static boolean isSuite(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      return false;
    }
    String content = Files.readString(file, StandardCharsets.UTF_8);
    var root = SourceTree.read(file.toString(), content, READING, Problem::new).root();
    return root != null && root.isObject() && root.has("experiments") && !root.has("method");
  }

  private static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> list = Files.list(dir)) {
      return list.filter(Files::isRegularFile)
          .filter(
              p -> {
                String name = p.getFileName().toString();
                return name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json");
              })
          .sorted()
          .toList();
    }
  }
}
