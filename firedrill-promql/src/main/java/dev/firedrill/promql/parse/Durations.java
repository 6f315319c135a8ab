package dev.firedrill.promql.parse;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Prometheus's duration syntax ({@code model.ParseDuration}): units from years down to ms, each once, in that order. */
final class Durations {

  private static final Pattern DURATION =
      Pattern.compile("(?:(\\d+)y)?(?:(\\d+)w)?(?:(\\d+)d)?(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?(?:(\\d+)ms)?");
  private static final long[] UNIT_MS = {365L * 24 * 3600_000, 7L * 24 * 3600_000, 24L * 3600_000, 3600_000, 60_000, 1000, 1};

  private Durations() {}

  /** Milliseconds; IllegalArgumentException with Prometheus's message for text it refuses, zero included. */
  static long parse(String text) {
    Matcher m = DURATION.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a valid duration string: " + GoText.quote(text));
    }
    long total = 0;
    for (int group = 1; group <= UNIT_MS.length; group++) {
      String digits = m.group(group);
      if (digits == null) {
        continue;
      }
      long unit = UNIT_MS[group - 1];
      // Prometheus keeps durations in int64 nanoseconds, hence its bound.
      long maxCount = Long.MAX_VALUE / 1_000_000 / unit;
      if (digits.length() > 18 || Long.parseLong(digits) > maxCount) {
        throw new IllegalArgumentException("duration out of range");
      }
      total += Long.parseLong(digits) * unit;
      if (total > Long.MAX_VALUE / 1_000_000) {
        throw new IllegalArgumentException("duration out of range");
      }
    }
    if (total == 0) {
      throw new IllegalArgumentException("duration must be greater than 0");
    }
    return total;
  }
}
