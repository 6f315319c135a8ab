package dev.firedrill.alerting.lint;

import java.util.Objects;

/**
 * Input the linter cannot read: a file that is not YAML, a rule without {@code expr}, a duration that
 * is not one. {@code FILE: /field/path: what was expected (line L, column C)}; line 0 without a position.
 */
public record ReadProblem(String file, String pointer, String message, int line, int column) {

  public ReadProblem {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(pointer, "pointer");
    Objects.requireNonNull(message, "message");
  }

  @Override
  public String toString() {
    String where = file + ": " + (pointer.isEmpty() ? "/" : pointer) + ": " + message;
    return line > 0 ? where + " (line " + line + ", column " + column + ")" : where;
  }
}
