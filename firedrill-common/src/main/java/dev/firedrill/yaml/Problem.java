package dev.firedrill.yaml;

import dev.firedrill.format.ControlChars;
import java.util.Objects;

/**
 * One thing wrong at a place in an input file (an experiment file, a rule file, prometheus.yml,
 * alertmanager.yml): where (a JSON pointer such as {@code /steady_state/slis/0/max}, and a 1-based
 * line and column) and what was expected. Line and column are 0 when there is no position (the file
 * could not be read, a directory held no rule files).
 */
public record Problem(String file, String pointer, String message, int line, int column) {

  public Problem {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(pointer, "pointer");
    Objects.requireNonNull(message, "message");
  }

  /**
   * {@code FILE: /field/path: what was expected (line L, column C)}; the root prints as {@code /}.
   * One line whatever the file holds: control characters in a key or a value are quoted.
   */
  @Override
  public String toString() {
    String where =
        ControlChars.quote(file)
            + ": "
            + (pointer.isEmpty() ? "/" : ControlChars.quote(pointer))
            + ": "
            + ControlChars.quote(message);
    return line > 0 ? where + " (line " + line + ", column " + column + ")" : where;
  }
}
