package dev.firedrill.alerting.routes;

import dev.firedrill.yaml.Problem;
import java.util.List;
import java.util.stream.Collectors;

/** An alertmanager.yml whose route tree cannot be used, with every problem found, in file order. */
public final class RouteConfigException extends Exception {

  private static final long serialVersionUID = 1L;

  private final transient List<Problem> problems;

  public RouteConfigException(List<Problem> problems) {
    super(problems.stream().map(Problem::toString).collect(Collectors.joining("\n")));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a RouteConfigException needs at least one problem");
    }
    this.problems = List.copyOf(problems);
  }

  public List<Problem> problems() {
    return problems;
  }
}
