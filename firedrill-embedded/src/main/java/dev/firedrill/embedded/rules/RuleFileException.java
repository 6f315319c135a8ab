package dev.firedrill.embedded.rules;

import dev.firedrill.yaml.Problem;
import java.util.List;
import java.util.stream.Collectors;

/** Rule files that cannot be loaded; the message lists every problem, separated by "; ". */
public final class RuleFileException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final List<Problem> problems;

  public RuleFileException(List<Problem> problems) {
    super(
        problems.stream().map(Problem::toString).collect(Collectors.joining("; ")),
        null,
        false,
        false);
    this.problems = List.copyOf(problems);
  }

  public List<Problem> problems() {
    return problems;
  }
}
