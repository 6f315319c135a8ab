package dev.firedrill.report;

import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An SLI's healthy range as the journal writes it: {@code <= 0.01}, {@code >= 0.99} or {@code
 * 0.1..0.5}; for an SLI with a control group, followed by (or only) its bounds against the control,
 * {@code <= 0.5, delta <= 0.05 vs control}. {@code min} and {@code max} are the SLI's own bounds
 * (what a chart draws as thresholds); {@code text} is the whole range.
 */
public record Range(OptionalDouble min, OptionalDouble max, String text) {

  private static final Pattern VERSUS =
      Pattern.compile("(?:^|,\\s*)(?:delta|ratio) .* vs control$");

  static Range parse(String text) {
    String whole = text.trim();
    Matcher versus = VERSUS.matcher(whole);
    if (versus.find()) {
      String own = whole.substring(0, versus.start()).trim();
      if (own.isEmpty()) {
        return new Range(OptionalDouble.empty(), OptionalDouble.empty(), whole);
      }
      Range range = parse(own);
      return new Range(range.min(), range.max(), whole);
    }
    String t = whole;
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
