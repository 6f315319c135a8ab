package dev.firedrill.time;

import dev.firedrill.format.GoQuote;
import java.time.Duration;
import java.util.Locale;

/**
 * Durations as Prometheus reads and writes them, for every file and option firedrill reads
 * (experiment files, rule files, prometheus.yml, PromQL, API parameters, command-line options):
 * {@code model.ParseDuration} and {@code model.Duration.String()} of prometheus/common. Units go
 * from the largest to the smallest, each at most once: {@code y w d h m s ms} (a year is 365 days,
 * a week 7); whole numbers only; {@code 0} alone needs no unit. Also the seconds with one decimal
 * that firedrill prints for people ({@code +12.0s} in console lines), which is not Prometheus's
 * spelling.
 */
public final class Durations {

  /** What firedrill's own files and options say when a duration is wrong. */
  public static final String EXPECTED = "expected a duration such as 500ms, 30s, 5m, 1h or 30d";

  /** The units in the only order Prometheus accepts them. */
  private static final String[] UNITS = {"y", "w", "d", "h", "m", "s", "ms"};

  private static final long[] UNIT_MS = {
    365L * 86_400_000, 7L * 86_400_000, 86_400_000, 3_600_000, 60_000, 1_000, 1
  };
  private static final String OUT_OF_RANGE =
      "; that is out of range (Prometheus allows at most about 292 years)";

  private Durations() {}

  /**
   * Why a text is not a duration; {@link #getMessage()} is firedrill's message, {@link
   * #prometheusMessage()} Prometheus's.
   */
  public static final class Invalid extends IllegalArgumentException {

    private final String prometheusMessage;
    private final String hint;

    private Invalid(String text, String prometheusMessage, String hint) {
      super(EXPECTED + ", got \"" + text + "\"" + hint);
      this.prometheusMessage = prometheusMessage;
      this.hint = hint;
    }

    /**
     * What Prometheus says about the same text, word for word: {@code not a valid duration string:
     * "5m1h"}.
     */
    public String prometheusMessage() {
      return prometheusMessage;
    }

    /**
     * What the plain "expected ..." leaves unsaid, to append to it: empty for a misspelling, else
     * {@code ; units go ...} for units out of order or repeated (Prometheus refuses {@code 30s1h})
     * and {@code ; that is out of range ...} past Prometheus's 292 years.
     */
    public String hint() {
      return hint;
    }
  }

  /**
   * Parses a duration as Prometheus does, throwing {@link Invalid} whose message is firedrill's:
   * {@code expected a duration such as 500ms, 30s, 5m, 1h or 30d, got "10 minutes"}, followed by
   * the rule broken when the units are out of order or the value is out of range.
   */
  public static Duration parse(String text) {
    if (text == null) {
      throw new Invalid("null", "empty duration string", "");
    }
    switch (text) {
      case "0":
        return Duration.ZERO;
      case "":
        throw new Invalid(text, "empty duration string", "");
      default:
        break;
    }
    // As model.ParseDuration: digits, then everything up to the next digit is the unit.
    String notValid = "not a valid duration string: " + GoQuote.of(text);
    long nanos = 0;
    int lastUnit = -1;
    int i = 0;
    while (i < text.length()) {
      int start = i;
      while (i < text.length() && isDigit(text.charAt(i))) {
        i++;
      }
      if (i == start) {
        throw new Invalid(text, notValid, "");
      }
      long count;
      try {
        count = Long.parseUnsignedLong(text.substring(start, i));
      } catch (NumberFormatException e) {
        // Go's ParseUint refuses what does not fit in 64 bits, and Prometheus calls that a syntax
        // error.
        throw new Invalid(text, notValid, OUT_OF_RANGE);
      }
      start = i;
      while (i < text.length() && !isDigit(text.charAt(i))) {
        i++;
      }
      if (i == start) {
        throw new Invalid(text, notValid, "");
      }
      String unitText = text.substring(start, i);
      int unit = unit(unitText);
      if (unit < 0) {
        throw new Invalid(
            text, "unknown unit " + GoQuote.of(unitText) + " in duration " + GoQuote.of(text), "");
      }
      if (unit <= lastUnit) {
        throw new Invalid(
            text,
            notValid,
            "; units go from the largest to the smallest, each at most once:"
                + " y, w, d, h, m, s, ms (such as 1h30m)");
      }
      lastUnit = unit;
      // Prometheus's bounds, in its unsigned nanoseconds: each part at most 2^63, the sum at most
      // 2^63 - 1.
      long unitNanos = UNIT_MS[unit] * 1_000_000;
      if (Long.compareUnsigned(count, Long.divideUnsigned(Long.MIN_VALUE, unitNanos)) > 0) {
        throw new Invalid(text, "duration out of range", OUT_OF_RANGE);
      }
      nanos += count * unitNanos;
      if (Long.compareUnsigned(nanos, Long.MAX_VALUE) > 0) {
        throw new Invalid(text, "duration out of range", OUT_OF_RANGE);
      }
    }
    return Duration.ofNanos(nanos);
  }

  /**
   * Parses as Prometheus does, throwing {@link IllegalArgumentException} with Prometheus's own
   * message.
   */
  public static Duration parsePrometheus(String text) {
    try {
      return parse(text);
    } catch (Invalid e) {
      throw new IllegalArgumentException(e.prometheusMessage(), e);
    }
  }

  /** The duration, or null where Prometheus refuses the text. */
  public static Duration parseOrNull(String text) {
    try {
      return parse(text);
    } catch (Invalid e) {
      return null;
    }
  }

  /**
   * Prometheus's spelling ({@code model.Duration.String()}): the largest units first, {@code 0s}
   * for zero; years and weeks only when they divide the whole duration, so {@code 14d} prints as
   * {@code 2w} but {@code 90d} stays {@code 90d}. Below a millisecond is dropped, as Prometheus
   * drops it.
   */
  public static String format(Duration duration) {
    long ms = duration.toMillis();
    if (ms == 0) {
      return "0s";
    }
    StringBuilder text = new StringBuilder();
    if (ms < 0) {
      text.append('-');
      ms = -ms;
    }
    for (int unit = 0; unit < UNITS.length; unit++) {
      boolean onlyWhenExact = unit < 2;
      if (onlyWhenExact && ms % UNIT_MS[unit] != 0) {
        continue;
      }
      if (ms >= UNIT_MS[unit]) {
        text.append(ms / UNIT_MS[unit]).append(UNITS[unit]);
        ms %= UNIT_MS[unit];
      }
    }
    return text.toString();
  }

  /**
   * Seconds with one decimal, as the console prints offsets and times for people: {@code 12.0s}.
   */
  public static String seconds(Duration duration) {
    return String.format(Locale.ROOT, "%.1fs", duration.toMillis() / 1000.0);
  }

  private static int unit(String text) {
    for (int unit = 0; unit < UNITS.length; unit++) {
      if (UNITS[unit].equals(text)) {
        return unit;
      }
    }
    return -1;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
