package dev.firedrill.embedded.alertmanager.config;

import dev.firedrill.yaml.Problem;
import java.util.List;

/**
 * An alertmanager.yml the embedded Alertmanager cannot run; the message is the first problem, on
 * one line.
 */
public final class ConfigException extends Exception {

  private static final long serialVersionUID = 1L;

  private final transient List<Problem> problems;

  public ConfigException(List<Problem> problems) {
    super(message(problems));
    this.problems = List.copyOf(problems);
  }

  public List<Problem> problems() {
    return problems;
  }

  private static String message(List<Problem> problems) {
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a ConfigException needs at least one problem");
    }
    String first = problems.get(0).toString().replace('\n', ' ');
    return problems.size() == 1
        ? first
        : first + " (and " + (problems.size() - 1) + " more problems)";
  }
}
