package dev.firedrill.promql.fn;

import dev.firedrill.promql.model.PromqlException;
import java.util.Locale;
import java.util.OptionalDouble;

/** {@code holt_winters}: double exponential smoothing, as Prometheus v2 names and computes it. */
final class HoltWinters {

  private HoltWinters() {}

  static OptionalDouble smooth(double[] v, int from, int to, double sf, double tf) {
    if (sf <= 0 || sf >= 1) {
      throw new PromqlException(
          PromqlException.ErrorType.EXECUTION,
          "invalid smoothing factor. Expected: 0 < sf < 1, got: " + goFloat(sf));
    }
    if (tf <= 0 || tf >= 1) {
      throw new PromqlException(
          PromqlException.ErrorType.EXECUTION,
          "invalid trend factor. Expected: 0 < tf < 1, got: " + goFloat(tf));
    }
    if (to - from < 2) {
      return OptionalDouble.empty();
    }
    double s0 = 0;
    double s1 = v[from];
    double b = v[from + 1] - v[from];
    for (int i = 1; i < to - from; i++) {
      double x = sf * v[from + i];
      // The first step keeps the initial trend; later ones blend the last change of the smoothed
      // value in.
      if (i > 1) {
        b = tf * (s1 - s0) + (1 - tf) * b;
      }
      double y = (1 - sf) * (s1 + b);
      s0 = s1;
      s1 = x + y;
    }
    return OptionalDouble.of(s1);
  }

  /** Go's {@code %f}: six decimals, and NaN, +Inf, -Inf spelled as Go spells them. */
  private static String goFloat(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "+Inf" : "-Inf";
    }
    return String.format(Locale.ROOT, "%f", value);
  }
}
