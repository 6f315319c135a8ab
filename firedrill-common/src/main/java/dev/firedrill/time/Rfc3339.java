package dev.firedrill.time;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Timestamps as Go's {@code time.Time} writes them in JSON (RFC 3339, up to nine fractional
 * digits, {@code Z} or an offset such as {@code +02:00}), where Go's zero time
 * {@code 0001-01-01T00:00:00Z} means "not set".
 */
public final class Rfc3339 {

  private static final Instant GO_ZERO = Instant.parse("0001-01-01T00:00:00Z");

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
}
