package dev.firedrill.experiment;

import dev.firedrill.yaml.Problem;
import java.util.List;
import java.util.stream.Collectors;

/** An experiment file that cannot be used, with every problem found in it, in file order. */
public final class ExperimentException extends Exception {

  private static final long serialVersionUID = 1L;

  private final transient List<Problem> problems;

  public ExperimentException(List<Problem> problems) {
    super(problems.stream().map(Problem::toString).collect(Collectors.joining("\n")));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("an ExperimentException needs at least one problem");
    }
    this.problems = List.copyOf(problems);
  }

  public List<Problem> problems() {
    return problems;
  }
}
