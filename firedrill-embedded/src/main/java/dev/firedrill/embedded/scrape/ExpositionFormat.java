package dev.firedrill.embedded.scrape;

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
   * as Prometheus 2.x asks when native histograms are off.
   */
  public static final String ACCEPT =
      "application/openmetrics-text;version=1.0.0,"
          + "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

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
