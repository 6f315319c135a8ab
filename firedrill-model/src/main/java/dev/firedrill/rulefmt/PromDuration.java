package dev.firedrill.rulefmt;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Prometheus durations: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h30m}, {@code 1d}, {@code 1w}, {@code 1y}. */
public final class PromDuration {

  private static final Pattern WHOLE = Pattern.compile("(?:\\d+(?:y|w|d|h|ms|m|s))+");
  private static final Pattern PART = Pattern.compile("(\\d+)(y|w|d|h|ms|m|s)");

  private PromDuration() {}

  /** The duration, or null when the text is not a Prometheus duration. */
  public static Duration parseOrNull(String text) {
    if (text == null) {
      return null;
    }
    String trimmed = text.strip();
    if (trimmed.equals("0")) {
      return Duration.ZERO;
    }
    if (!WHOLE.matcher(trimmed).matches()) {
      return null;
    }
    Duration total = Duration.ZERO;
    Matcher part = PART.matcher(trimmed);
    try {
      while (part.find()) {
        long n = Long.parseLong(part.group(1));
        total = total.plus(switch (part.group(2)) {
          case "y" -> Duration.ofDays(365).multipliedBy(n);
          case "w" -> Duration.ofDays(7).multipliedBy(n);
          case "d" -> Duration.ofDays(n);
          case "h" -> Duration.ofHours(n);
          case "m" -> Duration.ofMinutes(n);
          case "s" -> Duration.ofSeconds(n);
          default -> Duration.ofMillis(n);
        });
      }
    } catch (ArithmeticException | NumberFormatException e) {
      return null;
    }
    return total;
  }

  /** Prometheus's own spelling: {@code 4s}, {@code 1m}, {@code 1h30m}, {@code 3d}, {@code 0s}. */
  public static String format(Duration duration) {
    long ms = duration.toMillis();
    if (ms == 0) {
      return "0s";
    }
    StringBuilder out = new StringBuilder();
    long[] sizes = {7L * 86_400_000, 86_400_000, 3_600_000, 60_000, 1000, 1};
    String[] units = {"w", "d", "h", "m", "s", "ms"};
    for (int i = 0; i < sizes.length; i++) {
      if (ms >= sizes[i]) {
        out.append(ms / sizes[i]).append(units[i]);
        ms %= sizes[i];
      }
    }
    return out.toString();
  }
}
