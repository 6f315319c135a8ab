package dev.firedrill.embedded.scrape;

import java.math.BigDecimal;

/**
 * Prometheus 3's normalisation of a classic histogram's {@code le} and a summary's {@code quantile}
 * on ingest: a value that reads as a float is written as OpenMetrics writes floats ({@code 1} and
 * {@code 1.00} become {@code 1.0}, {@code 1e6} becomes {@code 1e+06}), so a series keeps one
 * identity whatever format it was scraped in. Prometheus 2 stores the text as exposed.
 */
final class BucketLabels {

  private BucketLabels() {}

  /** Whether {@code label} of a family of {@code type} is normalised. */
  static boolean normalised(String type, String label) {
    return switch (label) {
      case "le" -> "histogram".equals(type) || "gaugehistogram".equals(type);
      case "quantile" -> "summary".equals(type);
      default -> false;
    };
  }

  /** {@code value} as Prometheus 3 stores it; unchanged when it is no float. */
  static String normalise(String value) {
    Double f = ExpositionParser.parseFloat(value);
    return f == null ? value : openMetricsFloat(f);
  }

  /** Go's {@code strconv.FormatFloat(f, 'g', -1, 64)}, with {@code .0} when that has no point. */
  static String openMetricsFloat(double f) {
    if (Double.isNaN(f)) {
      return "NaN";
    }
    if (Double.isInfinite(f)) {
      return f > 0 ? "+Inf" : "-Inf";
    }
    if (f == 0) {
      return "0.0";
    }
    String s = shortestG(f);
    return s.indexOf('.') < 0 && s.indexOf('e') < 0 ? s + ".0" : s;
  }

  /** The shortest digits that read back as {@code f}, in Go's {@code %g} layout. */
  private static String shortestG(double f) {
    BigDecimal d = new BigDecimal(Double.toString(Math.abs(f))).stripTrailingZeros();
    String digits = d.unscaledValue().toString();
    int exp = digits.length() - 1 - d.scale();
    StringBuilder out = new StringBuilder(f < 0 ? "-" : "");
    // Go's shortest %g switches to an exponent below 1e-4 and from 1e+06 ("precision 6").
    if (exp < -4 || exp >= 6) {
      out.append(digits.charAt(0));
      if (digits.length() > 1) {
        out.append('.').append(digits, 1, digits.length());
      }
      out.append('e').append(exp < 0 ? '-' : '+');
      int e = Math.abs(exp);
      if (e < 10) {
        out.append('0');
      }
      return out.append(e).toString();
    }
    return out.append(d.toPlainString()).toString();
  }
}
