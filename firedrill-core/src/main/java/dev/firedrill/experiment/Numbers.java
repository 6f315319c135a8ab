package dev.firedrill.experiment;

import java.math.BigDecimal;

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
}
