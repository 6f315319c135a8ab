package dev.firedrill.programme.suite;

import dev.firedrill.yaml.Problem;
import java.util.List;
import java.util.stream.Collectors;

/** A suite that cannot run, with every problem of the suite file and of each experiment file. */
public final class SuiteException extends Exception {

  private static final long serialVersionUID = 1L;

  private final transient List<Problem> problems;

  public SuiteException(List<Problem> problems) {
    super(problems.stream().map(Problem::toString).collect(Collectors.joining("\n")));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a SuiteException needs at least one problem");
    }
    this.problems = List.copyOf(problems);
  }

  public List<Problem> problems() {
    return problems;
  }
}
