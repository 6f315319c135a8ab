package dev.firedrill.embedded.scrape;

import dev.firedrill.promql.eval.Compat;
import java.util.Locale;

/**
 * The two text formats a target may answer in, chosen by its Content-Type as Prometheus chooses.
 */
public enum ExpositionFormat {
  /**
   * Text format 0.0.4: whitespace between tokens, integer millisecond timestamps, # EOF unknown.
   */
  PROMETHEUS_TEXT,
  /**
   * OpenMetrics 1.0: single spaces, float second timestamps, exemplars, # UNIT, and a final # EOF.
   */
  OPENMETRICS;

  /**
   * What a scrape asks for: OpenMetrics first, then the text format, then anything (read as text),
   * as Prometheus 2.42 asks when native histograms are off.
   */
  private static final String ACCEPT_2 =
      "application/openmetrics-text;version=1.0.0,"
          + "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

  /**
   * As Prometheus 3.5 asks: the same order, each format also offered with UTF-8 names unescaped
   * ({@code escaping=allow-utf-8}), so a target may send quoted names.
   */
  private static final String ACCEPT_3 =
      "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.6,"
          + "application/openmetrics-text;version=0.0.1;q=0.5,"
          + "text/plain;version=1.0.0;escaping=allow-utf-8;q=0.4,"
          + "text/plain;version=0.0.4;q=0.3,*/*;q=0.2";

  /** The Accept header of a scrape by the given Prometheus. */
  public static String accept(Compat compat) {
    return compat == Compat.PROMETHEUS_3 ? ACCEPT_3 : ACCEPT_2;
  }

  /**
   * OpenMetrics for {@code application/openmetrics-text}; anything else, or none, is the text
   * format.
   */
  public static ExpositionFormat of(String contentType) {
    if (contentType == null) {
      return PROMETHEUS_TEXT;
    }
    int semicolon = contentType.indexOf(';');
    String mediaType = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip();
    return mediaType.toLowerCase(Locale.ROOT).equals("application/openmetrics-text")
        ? OPENMETRICS
        : PROMETHEUS_TEXT;
  }
}
