package dev.firedrill.embedded.rules;

import java.util.List;
import java.util.stream.Collectors;

/** Rule files that cannot be loaded; the message lists every problem, separated by "; ". */
public final class RuleFileException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final List<RuleFileProblem> problems;

  public RuleFileException(List<RuleFileProblem> problems) {
    super(problems.stream().map(RuleFileProblem::toString).collect(Collectors.joining("; ")), null, false, false);
    this.problems = List.copyOf(problems);
  }

  public List<RuleFileProblem> problems() {
    return problems;
  }
}
