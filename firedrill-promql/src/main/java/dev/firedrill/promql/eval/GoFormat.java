package dev.firedrill.promql.eval;

import dev.firedrill.promql.model.GoQuote;
import dev.firedrill.promql.model.LabelSet;
import java.math.BigDecimal;

/** Go's renderings that Prometheus's error messages and labels carry, so ours read the same. */
final class GoFormat {

  private GoFormat() {}

  /** {@code labels.Labels.String()}: {@code {__name__="a", b="c"}}, the name as a plain label. */
  static String labels(LabelSet labels) {
    StringBuilder out = new StringBuilder("{");
    for (int i = 0; i < labels.size(); i++) {
      if (i > 0) {
        out.append(", ");
      }
      out.append(labels.name(i)).append('=').append(GoQuote.of(labels.value(i)));
    }
    return out.append('}').toString();
  }

  /** {@code strconv.FormatFloat(v, 'f', -1, 64)}: shortest digits, never an exponent. */
  static String plain(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == 0) {
      return 1 / v < 0 ? "-0" : "0";
    }
    return new BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
  }

  /** {@code fmt}'s {@code %v} of a float64: shortest digits, an exponent from 1e6 and below 1e-4. */
  static String value(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == 0) {
      return 1 / v < 0 ? "-0" : "0";
    }
    BigDecimal d = new BigDecimal(Double.toString(v)).stripTrailingZeros();
    int exp = d.precision() - d.scale() - 1;
    if (exp < -4 || exp >= 6) {
      String digits = d.unscaledValue().abs().toString();
      String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      String e = String.format("%02d", Math.abs(exp));
      return (v < 0 ? "-" : "") + mantissa + "e" + (exp < 0 ? "-" : "+") + e;
    }
    return d.toPlainString();
  }
}
