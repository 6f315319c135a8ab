package dev.firedrill.report;

import java.util.OptionalDouble;

/**
 * An SLI's healthy range as the journal writes it: {@code <= 0.01}, {@code >= 0.99} or {@code
 * 0.1..0.5}.
 */
public record Range(OptionalDouble min, OptionalDouble max, String text) {

  static Range parse(String text) {
    String t = text.trim();
    try {
      if (t.startsWith("<=")) {
        return new Range(
            OptionalDouble.empty(),
            OptionalDouble.of(Double.parseDouble(t.substring(2).trim())),
            t);
      }
      if (t.startsWith(">=")) {
        return new Range(
            OptionalDouble.of(Double.parseDouble(t.substring(2).trim())),
            OptionalDouble.empty(),
            t);
      }
      int dots = t.indexOf("..");
      if (dots > 0) {
        return new Range(
            OptionalDouble.of(Double.parseDouble(t.substring(0, dots).trim())),
            OptionalDouble.of(Double.parseDouble(t.substring(dots + 2).trim())),
            t);
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "expected a range like \"<= 0.01\", \">= 0.99\" or \"0.1..0.5\", got \"" + text + "\"",
          e);
    }
    throw new IllegalArgumentException(
        "expected a range like \"<= 0.01\", \">= 0.99\" or \"0.1..0.5\", got \"" + text + "\"");
  }

  /** Higher is worse when only a maximum is set; then "worst" means the highest value. */
  public boolean upperBoundOnly() {
    return max.isPresent() && min.isEmpty();
  }

  public boolean lowerBoundOnly() {
    return min.isPresent() && max.isEmpty();
  }
}
