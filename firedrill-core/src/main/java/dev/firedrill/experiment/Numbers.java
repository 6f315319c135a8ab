package dev.firedrill.experiment;

import java.math.BigDecimal;
import java.util.OptionalDouble;

/**
 * Prints numbers the way an SRE writes them: no trailing zeros, no exponent for everyday values.
 */
public final class Numbers {

  private Numbers() {}

  public static String format(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "+Inf" : "-Inf";
    }
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    double magnitude = Math.abs(value);
    if (magnitude >= 1e-4 && magnitude < 1e15) {
      BigDecimal rounded = new BigDecimal(value).round(new java.math.MathContext(4));
      return rounded.stripTrailingZeros().toPlainString();
    }
    return String.format(java.util.Locale.ROOT, "%.3g", value);
  }

  /** An inclusive range as people write it: {@code <= 0.005}, {@code >= 0.99}, {@code 0.9..1}. */
  public static String rangeText(OptionalDouble min, OptionalDouble max) {
    if (min.isPresent() && max.isPresent()) {
      return format(min.getAsDouble()) + ".." + format(max.getAsDouble());
    }
    return max.isPresent() ? "<= " + format(max.getAsDouble()) : ">= " + format(min.getAsDouble());
  }
}
