package dev.firedrill.kubernetes.chaosmesh;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Go's {@code time.ParseDuration}, which Chaos Mesh uses for {@code spec.duration}: a sequence of
 * decimal numbers with units ns, us (µs), ms, s, m, h, such as {@code 90s}, {@code 1m30s} or {@code
 * 1.5h}. Prometheus's grammar differs (no fractions, no µs), so firedrill's own parser would refuse
 * durations Chaos Mesh takes.
 */
final class GoDuration {

  private static final Pattern TERM =
      Pattern.compile("(\\d++(?:\\.\\d*+)?|\\.\\d++)(ns|us|µs|ms|s|m|h)");

  private static final Map<String, Long> NANOS =
      Map.of(
          "ns", 1L,
          "us", 1_000L,
          "µs", 1_000L,
          "ms", 1_000_000L,
          "s", 1_000_000_000L,
          "m", 60_000_000_000L,
          "h", 3_600_000_000_000L);

  private GoDuration() {}

  /** The duration {@code text} names, or null when Go would refuse it (or it is negative). */
  static Duration parse(String text) {
    String body = text.strip();
    if (body.equals("0")) {
      return Duration.ZERO;
    }
    if (body.isEmpty()) {
      return null;
    }
    Matcher term = TERM.matcher(body);
    BigDecimal nanos = BigDecimal.ZERO;
    int at = 0;
    while (at < body.length()) {
      if (!term.find(at) || term.start() != at) {
        return null;
      }
      nanos =
          nanos.add(
              new BigDecimal(term.group(1)).multiply(BigDecimal.valueOf(NANOS.get(term.group(2)))));
      at = term.end();
    }
    return Duration.ofNanos(nanos.longValue());
  }
}
