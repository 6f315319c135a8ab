package dev.firedrill.simulate;

import java.util.List;

/**
 * A model file that cannot be used; one line per problem, each naming file, field and expectation.
 */
public final class ModelException extends Exception {
  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  public ModelException(List<String> problems) {
    super(String.join("\n", problems));
    this.problems = List.copyOf(problems);
  }

  public List<String> problems() {
    return problems;
  }
}
