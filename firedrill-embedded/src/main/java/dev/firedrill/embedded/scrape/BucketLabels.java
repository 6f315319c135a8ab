package dev.firedrill.embedded.scrape;

import dev.firedrill.format.GoFloat;

/**
 * Prometheus 3's normalisation of a classic histogram's {@code le} and a summary's {@code quantile}
 * on ingest: a value that reads as a float is written as OpenMetrics writes floats ({@code 1} and
 * {@code 1.00} become {@code 1.0}, {@code 1e6} becomes {@code 1e+06}), so a series keeps one
 * identity whatever format it was scraped in. Prometheus 2 stores the text as exposed. Public for
 * the simulated scrape, which stores its model's samples as this one stores scraped ones.
 */
public final class BucketLabels {

  private BucketLabels() {}

  /** Whether {@code label} of a family of {@code type} is normalised. */
  public static boolean normalised(String type, String label) {
    return switch (label) {
      case "le" -> "histogram".equals(type) || "gaugehistogram".equals(type);
      case "quantile" -> "summary".equals(type);
      default -> false;
    };
  }

  /** {@code value} as Prometheus 3 stores it; unchanged when it is no float. */
  public static String normalise(String value) {
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
    String s = GoFloat.sprint(f);
    return s.indexOf('.') < 0 && s.indexOf('e') < 0 ? s + ".0" : s;
  }
}
