package dev.firedrill.format;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Go's float64 texts as Prometheus writes them: {@code strconv.FormatFloat} for the formats {@code
 * e}, {@code f} and {@code g} ({@code +Inf}, {@code -Inf}, {@code NaN} included), the value strings
 * and JSON numbers of its HTTP API, and {@code strconv.ParseFloat} for label values. What
 * firedrill's copies of Prometheus print must be byte for byte what Go prints, and Java's own
 * formatting differs (exponent digits, trailing zeros, where %g switches to an exponent, and Java
 * 17's {@code Double.toString} is not always the shortest, JDK-4511638).
 */
public final class GoFloat {

  private GoFloat() {}

  /**
   * {@code strconv.FormatFloat(v, 'f', -1, 64)}: shortest digits, never an exponent ({@code 1e21}
   * is 22 digits).
   */
  public static String shortestF(double v) {
    return format(v, 'f', -1);
  }

  /**
   * {@code strconv.FormatFloat(v, 'e', -1, 64)}: how Prometheus's API writes an alert's value
   * ({@code 5e+00}).
   */
  public static String shortestE(double v) {
    return format(v, 'e', -1);
  }

  /**
   * {@code fmt.Sprint(v)} ({@code %v}) of a float64: shortest digits, an exponent below 1e-4 and
   * from 1e6 on.
   */
  public static String sprint(double v) {
    return format(v, 'g', -1);
  }

  /**
   * A sample value as Prometheus's {@code jsonutil.MarshalValue} writes it into the API's JSON
   * (without the quotes): {@code 'f'}, switching to {@code 'e'} below 1e-6 and from 1e21.
   */
  public static String sampleValue(double v) {
    return format(v, exponentInJson(v) ? 'e' : 'f', -1);
  }

  /**
   * A float64 field as Go's {@code encoding/json} writes it (finite values only): as {@link
   * #sampleValue}, but {@code 1e-07} shortened to {@code 1e-7}.
   */
  public static String jsonNumber(double v) {
    if (!exponentInJson(v)) {
      return format(v, 'f', -1);
    }
    String e = format(v, 'e', -1);
    int n = e.length();
    return n >= 4 && e.charAt(n - 4) == 'e' && e.charAt(n - 3) == '-' && e.charAt(n - 2) == '0'
        ? e.substring(0, n - 2) + e.charAt(n - 1)
        : e;
  }

  /**
   * Go's {@code strconv.ParseFloat(s, 64)} for label values such as {@code le}: decimals, and Inf,
   * Infinity and NaN in any case with an optional sign; null where Go reports an error.
   */
  public static Double parse(String s) {
    String t = s.startsWith("+") || s.startsWith("-") ? s.substring(1) : s;
    boolean negative = s.startsWith("-");
    if (t.equalsIgnoreCase("inf") || t.equalsIgnoreCase("infinity")) {
      return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (t.equalsIgnoreCase("nan")) {
      return Double.NaN;
    }
    // Java would also take a trailing d or f and surrounding blanks, which Go refuses.
    if (t.isEmpty()
        || !t.chars()
            .allMatch(
                c ->
                    Character.isDigit(c)
                        || c == '.'
                        || c == 'e'
                        || c == 'E'
                        || c == '+'
                        || c == '-')) {
      return null;
    }
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * Go's {@code strconv.FormatFloat(v, fmt, prec, 64)} with fmt one of e, f, g; prec -1 is
   * shortest.
   */
  public static String format(double v, char fmt, int prec) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    boolean negative = (Double.doubleToRawLongBits(v) & Long.MIN_VALUE) != 0;
    BigDecimal exact = new BigDecimal(Math.abs(v));
    boolean shortest = prec < 0;
    Digits digs;
    if (shortest) {
      digs = shortestDigits(Math.abs(v), exact);
      prec =
          switch (fmt) {
            case 'e' -> digs.nd() - 1;
            case 'f' -> Math.max(digs.nd() - digs.dp(), 0);
            default -> digs.nd();
          };
    } else if (fmt == 'f') {
      digs = Digits.of(exact.setScale(prec, RoundingMode.HALF_EVEN));
    } else {
      int significant = fmt == 'e' ? prec + 1 : Math.max(prec, 1);
      if (fmt == 'g' && prec == 0) {
        prec = 1;
      }
      digs = Digits.of(exact.round(new MathContext(significant, RoundingMode.HALF_EVEN)));
    }
    StringBuilder out = new StringBuilder();
    if (negative) {
      out.append('-');
    }
    switch (fmt) {
      case 'e' -> fmtE(out, digs, prec);
      case 'f' -> fmtF(out, digs, prec);
      default -> {
        int eprec = prec;
        if (eprec > digs.nd() && digs.nd() >= digs.dp()) {
          eprec = digs.nd();
        }
        if (shortest) {
          eprec = 6;
        }
        int exp = digs.dp() - 1;
        if (exp < -4 || exp >= eprec) {
          fmtE(out, digs, Math.min(prec, digs.nd()) - 1);
        } else {
          fmtF(out, digs, Math.max((prec > digs.dp() ? digs.nd() : prec) - digs.dp(), 0));
        }
      }
    }
    return out.toString();
  }

  /** Decimal digits without trailing zeros and the decimal point's position: 0.25 is "25", 0. */
  private record Digits(String d, int dp) {
    int nd() {
      return d.length();
    }

    char at(int i) {
      return i >= 0 && i < d.length() ? d.charAt(i) : '0';
    }

    static Digits of(BigDecimal value) {
      if (value.signum() == 0) {
        return new Digits("", 0);
      }
      BigDecimal stripped = value.stripTrailingZeros();
      String unscaled = stripped.unscaledValue().toString();
      return new Digits(unscaled, unscaled.length() - stripped.scale());
    }
  }

  private static boolean exponentInJson(double v) {
    double abs = Math.abs(v);
    return abs != 0 && (abs < 1e-6 || abs >= 1e21);
  }

  /**
   * The fewest significant digits that read back as the same double, as Go's shortest formatting:
   * the exact value rounded to 1, 2, ... digits, the first that reads back (the closest of that
   * length).
   */
  private static Digits shortestDigits(double abs, BigDecimal exact) {
    if (abs == 0) {
      return new Digits("", 0);
    }
    if (abs == Math.rint(abs) && abs < 1e15) {
      // Whole numbers below 2^53 are exact, so their digits are the shortest (the common case of a
      // sample).
      return Digits.of(BigDecimal.valueOf((long) abs));
    }
    for (int p = 1; p < 17; p++) {
      BigDecimal rounded = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
      if (rounded.doubleValue() == abs) {
        return Digits.of(rounded);
      }
    }
    return Digits.of(exact.round(new MathContext(17, RoundingMode.HALF_EVEN)));
  }

  private static void fmtE(StringBuilder out, Digits digs, int prec) {
    out.append(digs.nd() == 0 ? '0' : digs.at(0));
    if (prec > 0) {
      out.append('.');
      for (int i = 1; i <= prec; i++) {
        out.append(digs.at(i));
      }
    }
    int exp = digs.nd() == 0 ? 0 : digs.dp() - 1;
    out.append('e').append(exp < 0 ? '-' : '+');
    int abs = Math.abs(exp);
    if (abs < 10) {
      out.append('0');
    }
    out.append(abs);
  }

  private static void fmtF(StringBuilder out, Digits digs, int prec) {
    if (digs.dp() > 0) {
      for (int i = 0; i < digs.dp(); i++) {
        out.append(digs.at(i));
      }
    } else {
      out.append('0');
    }
    if (prec > 0) {
      out.append('.');
      for (int i = 1; i <= prec; i++) {
        out.append(digs.at(digs.dp() + i - 1));
      }
    }
  }
}
