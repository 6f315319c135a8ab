package dev.firedrill.promql.conformance;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Prometheus's model.ParseDuration ({@code 1h30m}, {@code 0}), in milliseconds; a leading minus allowed. */
final class Duration {

  private static final Pattern PATTERN = Pattern.compile(
      "(-)?(?:(\\d+)y)?(?:(\\d+)w)?(?:(\\d+)d)?(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?(?:(\\d+)ms)?");
  private static final long[] UNITS = {365L * 86_400_000, 7L * 86_400_000, 86_400_000, 3_600_000, 60_000, 1000, 1};

  private Duration() {}

  static long parseMillis(String text) {
    String t = text.trim();
    if (t.equals("0")) {
      return 0;
    }
    Matcher m = PATTERN.matcher(t);
    if (t.isEmpty() || t.equals("-") || !m.matches()) {
      throw new IllegalArgumentException("not a duration: \"" + text + "\"");
    }
    long ms = 0;
    for (int i = 0; i < UNITS.length; i++) {
      if (m.group(i + 2) != null) {
        ms += Long.parseLong(m.group(i + 2)) * UNITS[i];
      }
    }
    return m.group(1) != null ? -ms : ms;
  }
}
