package dev.firedrill.embedded.api;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Numbers and times as Prometheus's Go code writes them into its API's JSON, so a client comparing
 * answers byte for byte sees no difference from the real server.
 */
final class GoFormat {

  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);

  private GoFormat() {}

  /**
   * A sample value as Prometheus's {@code jsonutil.MarshalValue} writes it (without the quotes):
   * {@code strconv.FormatFloat} with {@code 'f'}, switching to {@code 'e'} below 1e-6 and from 1e21.
   */
  static String sampleValue(double v) {
    double abs = Math.abs(v);
    return abs != 0 && (abs < 1e-6 || abs >= 1e21) ? formatE(v) : formatF(v);
  }

  /** Go's {@code strconv.FormatFloat(v, 'f', -1, 64)}. */
  static String formatF(double v) {
    String special = special(v);
    if (special != null) {
      return special;
    }
    if (v == 0) {
      return isNegativeZero(v) ? "-0" : "0";
    }
    return shortest(v).toPlainString();
  }

  /** Go's {@code strconv.FormatFloat(v, 'e', -1, 64)}: {@code 5e+00}, {@code 1.5e-07}. */
  static String formatE(double v) {
    String special = special(v);
    if (special != null) {
      return special;
    }
    if (v == 0) {
      return (isNegativeZero(v) ? "-" : "") + "0e+00";
    }
    BigDecimal d = shortest(v);
    String digits = d.unscaledValue().abs().toString();
    int exponent = d.precision() - d.scale() - 1;
    StringBuilder out = new StringBuilder(digits.length() + 8);
    if (v < 0) {
      out.append('-');
    }
    out.append(digits.charAt(0));
    if (digits.length() > 1) {
      out.append('.').append(digits, 1, digits.length());
    }
    out.append('e').append(exponent < 0 ? '-' : '+');
    int abs = Math.abs(exponent);
    if (abs < 10) {
      out.append('0');
    }
    return out.append(abs).toString();
  }

  /** A float64 field as Go's {@code encoding/json} writes it (finite values only). */
  static String jsonNumber(double v) {
    double abs = Math.abs(v);
    if (abs != 0 && (abs < 1e-6 || abs >= 1e21)) {
      String e = formatE(v);
      int n = e.length();
      // encoding/json shortens a two-digit negative exponent: 1e-07 becomes 1e-7.
      return n > 4 && e.charAt(n - 4) == 'e' && e.charAt(n - 3) == '-' && e.charAt(n - 2) == '0'
          ? e.substring(0, n - 2) + e.charAt(n - 1)
          : e;
    }
    return v == 0 ? "0" : formatF(v);
  }

  /**
   * Milliseconds as Prometheus's {@code jsonutil.MarshalTimestamp} writes them: seconds, and when
   * there is a fraction, all three of its digits ({@code 1.500}).
   */
  static String timestamp(long ms) {
    StringBuilder out = new StringBuilder(20);
    long t = ms;
    if (t < 0) {
      out.append('-');
      t = -t;
    }
    out.append(t / 1000);
    long fraction = t % 1000;
    if (fraction != 0) {
      out.append('.');
      if (fraction < 100) {
        out.append('0');
      }
      if (fraction < 10) {
        out.append('0');
      }
      out.append(fraction);
    }
    return out.toString();
  }

  /** Go's {@code time.Time} in JSON (RFC 3339 with nanoseconds, trailing zeros dropped), in UTC. */
  static String rfc3339Nano(Instant at) {
    StringBuilder out = new StringBuilder(SECONDS.format(at));
    int nanos = at.getNano();
    if (nanos != 0) {
      String digits = String.format("%09d", nanos);
      int end = digits.length();
      while (digits.charAt(end - 1) == '0') {
        end--;
      }
      out.append('.').append(digits, 0, end);
    }
    return out.append('Z').toString();
  }

  private static String special(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    return null;
  }

  private static boolean isNegativeZero(double v) {
    return Double.doubleToRawLongBits(v) == Long.MIN_VALUE;
  }

  /**
   * The fewest significant digits that read back as {@code v}, as Go's shortest formatting picks
   * them. Java 17's {@code Double.toString} round-trips but is not always the shortest (JDK-4511638),
   * so it is only the upper bound of the search.
   */
  private static BigDecimal shortest(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return BigDecimal.valueOf((long) v).stripTrailingZeros();
    }
    BigDecimal bound = new BigDecimal(Double.toString(v)).stripTrailingZeros();
    BigDecimal exact = new BigDecimal(v);
    for (int digits = 1; digits < bound.precision(); digits++) {
      BigDecimal candidate = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
      if (candidate.doubleValue() == v) {
        return candidate.stripTrailingZeros();
      }
    }
    return bound;
  }
}
