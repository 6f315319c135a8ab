package dev.firedrill.promql.conformance;

import dev.firedrill.time.Durations;

/**
 * Durations in the test scripts, in milliseconds, as Prometheus's model.ParseDurationAllowNegative
 * reads them.
 */
final class Duration {

  private Duration() {}

  static long parseMillis(String text) {
    String t = text.trim();
    boolean negative = t.startsWith("-");
    long ms = Durations.parsePrometheus(negative ? t.substring(1) : t).toMillis();
    return negative ? -ms : ms;
  }
}
