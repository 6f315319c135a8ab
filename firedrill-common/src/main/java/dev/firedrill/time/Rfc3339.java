package dev.firedrill.time;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Optional;

/**
 * Timestamps as Go's {@code time.Time} writes them in JSON (RFC 3339, up to nine fractional digits,
 * {@code Z} or an offset such as {@code +02:00}), where Go's zero time {@code 0001-01-01T00:00:00Z}
 * means "not set".
 */
public final class Rfc3339 {

  /** Go's zero time as it writes it: what an unset time says. */
  private static final String GO_ZERO_TEXT = "0001-01-01T00:00:00Z";

  private static final Instant GO_ZERO = Instant.parse(GO_ZERO_TEXT);

  /** Go's {@code time.RFC3339Nano}: up to nine fractional digits, trailing zeros dropped. */
  private static final DateTimeFormatter NANO =
      new DateTimeFormatterBuilder()
          .appendPattern("uuuu-MM-dd'T'HH:mm:ss")
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
          .appendLiteral('Z')
          .toFormatter()
          .withZone(ZoneOffset.UTC);

  private Rfc3339() {}

  /** The instant, or {@link DateTimeParseException} for text that is not RFC 3339. */
  public static Instant parse(String text) {
    return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
  }

  /** Empty for Go's zero time (and anything before year 2), else the instant. */
  public static Optional<Instant> parseUnlessZero(String text) {
    Instant at = parse(text);
    return at.isAfter(GO_ZERO.plusSeconds(366L * 24 * 3600)) ? Optional.of(at) : Optional.empty();
  }

  /**
   * The instant as Go's {@code time.Time} writes itself in JSON, in UTC: {@code
   * 2026-11-29T23:48:39.63130994Z}.
   */
  public static String formatNano(Instant at) {
    return NANO.format(at);
  }

  /** {@link #formatNano} for a time that may be unset, which Go writes as its zero time. */
  public static String formatNanoOrZero(Optional<Instant> at) {
    return at.map(Rfc3339::formatNano).orElse(GO_ZERO_TEXT);
  }
}
