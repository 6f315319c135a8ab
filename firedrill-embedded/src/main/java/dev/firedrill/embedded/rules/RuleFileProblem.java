package dev.firedrill.embedded.rules;

import java.util.Objects;

/**
 * One thing wrong in a rule file: {@code FILE: /json/pointer: message (line L, column C)}; line 0
 * when the problem has no position (a file that cannot be read).
 */
public record RuleFileProblem(String file, String pointer, String message, int line, int column) {

  public RuleFileProblem {
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
