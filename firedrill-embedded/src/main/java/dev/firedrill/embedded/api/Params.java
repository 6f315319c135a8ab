package dev.firedrill.embedded.api;

import dev.firedrill.format.GoQuote;
import dev.firedrill.time.Durations;
import dev.firedrill.time.Rfc3339;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * Times and durations in API parameters, read as Prometheus's {@code parseTime} and {@code
 * parseDuration} read them.
 */
final class Params {

  /**
   * Prometheus's {@code minTime} and {@code maxTime} in milliseconds: the defaults of series and
   * label lookups.
   */
  static final long MIN_TIME_MS = (Long.MIN_VALUE / 1000 + 62135596801L) * 1000;

  static final long MAX_TIME_MS = (Long.MAX_VALUE / 1000 - 62135596801L) * 1000 + 999;

  private static final String MIN_TIME_TEXT = "-292273086-05-16T16:47:06Z";
  private static final String MAX_TIME_TEXT = "292277025-08-18T07:12:54.999999999Z";
  private static final Pattern FLOAT =
      Pattern.compile("[-+]?(?:\\d++(?:\\.\\d*+)?|\\.\\d++)(?:[eE][-+]?\\d++)?");

  private Params() {}

  /** The time in milliseconds, or {@code fallback} when the parameter is absent. */
  static long time(Form form, String name, long fallback) {
    String text = form.first(name);
    if (text.isEmpty()) {
      return fallback;
    }
    try {
      return parseTime(text);
    } catch (IllegalArgumentException e) {
      throw ApiError.invalidParameter(
          name, "Invalid time value for '" + name + "': " + e.getMessage());
    }
  }

  /**
   * A required time (query_range's start and end), which Prometheus reports without the "Invalid
   * time value" part.
   */
  static long requiredTime(Form form, String name) {
    try {
      return parseTime(form.first(name));
    } catch (IllegalArgumentException e) {
      throw ApiError.invalidParameter(name, e.getMessage());
    }
  }

  static Duration duration(Form form, String name) {
    try {
      return parseDuration(form.first(name));
    } catch (IllegalArgumentException e) {
      throw ApiError.invalidParameter(name, e.getMessage());
    }
  }

  /** Unix seconds (to the millisecond, rounded as Go's {@code math.Round}) or RFC 3339. */
  static long parseTime(String text) {
    if (FLOAT.matcher(text).matches()) {
      BigDecimal seconds = new BigDecimal(text);
      BigDecimal whole = seconds.setScale(0, RoundingMode.DOWN);
      long millis =
          seconds.subtract(whole).movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValue();
      try {
        return Math.addExact(Math.multiplyExact(whole.longValueExact(), 1000L), millis);
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException(
            "cannot parse " + GoQuote.of(text) + " to a valid timestamp");
      }
    }
    switch (text) {
      case MIN_TIME_TEXT:
        return MIN_TIME_MS;
      case MAX_TIME_TEXT:
        return MAX_TIME_MS;
      default:
        break;
    }
    try {
      return Rfc3339.parse(text).toEpochMilli();
    } catch (DateTimeParseException | ArithmeticException e) {
      throw new IllegalArgumentException(
          "cannot parse " + GoQuote.of(text) + " to a valid timestamp");
    }
  }

  /** Seconds as a float, or a Prometheus duration such as {@code 1m30s}. */
  static Duration parseDuration(String text) {
    if (FLOAT.matcher(text).matches()) {
      double nanos = Double.parseDouble(text) * 1e9;
      if (nanos > Long.MAX_VALUE || nanos < Long.MIN_VALUE) {
        throw new IllegalArgumentException(
            "cannot parse " + GoQuote.of(text) + " to a valid duration. It overflows int64");
      }
      return Duration.ofNanos((long) nanos);
    }
    Duration parsed = Durations.parseOrNull(text);
    if (parsed == null) {
      throw new IllegalArgumentException(
          "cannot parse " + GoQuote.of(text) + " to a valid duration");
    }
    return parsed;
  }
}
