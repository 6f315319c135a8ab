package dev.firedrill.alerting.lint;

import java.util.Objects;

/**
 * One thing to fix in a rule file, printed as one line: {@code FILE: group GROUP, alert NAME: what
 * is wrong; the fix}.
 *
 * @param kind {@code alert} or {@code record}
 */
public record Finding(String file, String group, String kind, String rule, String message) {

  public Finding {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(message, "message");
  }

  @Override
  public String toString() {
    return file + ": group " + group + ", " + kind + " " + rule + ": " + message;
  }
}
