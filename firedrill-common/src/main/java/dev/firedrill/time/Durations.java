package dev.firedrill.time;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Prometheus-style durations: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h30m}, {@code 30d}, {@code 1w}, {@code 1y}. */
public final class Durations {

  private static final Pattern WHOLE = Pattern.compile("(?:\\d+(?:ms|s|m|h|d|w|y))+");
  private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h|d|w|y)");

  private Durations() {}

  /** Parses a duration, throwing {@link IllegalArgumentException} with the expectation on bad input. */
  public static Duration parse(String text) {
    if (text == null || !WHOLE.matcher(text).matches()) {
      throw new IllegalArgumentException(
          "expected a duration such as 500ms, 30s, 5m, 1h or 30d, got \"" + text + "\"");
    }
    Duration total = Duration.ZERO;
    Matcher part = PART.matcher(text);
    while (part.find()) {
      long amount = Long.parseLong(part.group(1));
      total = total.plus(switch (part.group(2)) {
        case "ms" -> Duration.ofMillis(amount);
        case "s" -> Duration.ofSeconds(amount);
        case "m" -> Duration.ofMinutes(amount);
        case "h" -> Duration.ofHours(amount);
        case "d" -> Duration.ofDays(amount);
        case "w" -> Duration.ofDays(7 * amount);
        default -> Duration.ofDays(365 * amount);
      });
    }
    return total;
  }

  /** The shortest Prometheus-style text for a duration: {@code 90s} prints as {@code 1m30s}. */
  public static String format(Duration duration) {
    if (duration.isZero()) {
      return "0s";
    }
    StringBuilder text = new StringBuilder();
    long millis = duration.toMillis();
    long[] sizes = {86_400_000L, 3_600_000L, 60_000L, 1_000L, 1L};
    String[] units = {"d", "h", "m", "s", "ms"};
    for (int i = 0; i < sizes.length; i++) {
      if (millis >= sizes[i]) {
        text.append(millis / sizes[i]).append(units[i]);
        millis %= sizes[i];
      }
    }
    return text.toString();
  }

  /** Seconds with one decimal, as the console prints offsets: {@code 12.0s}. */
  public static String seconds(Duration duration) {
    return String.format(java.util.Locale.ROOT, "%.1fs", duration.toMillis() / 1000.0);
  }
}
