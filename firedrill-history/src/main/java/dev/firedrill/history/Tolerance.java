package dev.firedrill.history;

import dev.firedrill.time.Durations;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How much a time to detect may grow over its baseline before it is a regression: a percentage of
 * the baseline, a duration, or both, when the larger allowance wins. The default, {@code 50%,2s},
 * lets a slow alert (minutes) wobble by half and a fast one by about two evaluation intervals,
 * since a rule's evaluation tick alone moves a detection by up to one interval.
 */
public record Tolerance(Optional<BigDecimal> percent, Optional<Duration> absolute) {

  public static final String DEFAULT_TEXT = "50%,2s";
  private static final String EXPECTED =
      "expected a percentage (50%), a duration (2s) or both (50%,2s)";

  public static Tolerance parse(String text) {
    Optional<BigDecimal> percent = Optional.empty();
    Optional<Duration> absolute = Optional.empty();
    for (String part : text.strip().split("\\s*,\\s*", -1)) {
      if (part.endsWith("%") && percent.isEmpty()) {
        try {
          BigDecimal value = new BigDecimal(part.substring(0, part.length() - 1));
          if (value.signum() < 0) {
            throw new IllegalArgumentException(
                "\"" + text + "\": a tolerance cannot be negative; " + EXPECTED);
          }
          percent = Optional.of(value);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("\"" + text + "\": " + EXPECTED, e);
        }
      } else if (!part.endsWith("%") && absolute.isEmpty()) {
        try {
          absolute = Optional.of(Durations.parse(part));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("\"" + text + "\": " + EXPECTED, e);
        }
      } else {
        throw new IllegalArgumentException("\"" + text + "\": " + EXPECTED);
      }
    }
    return new Tolerance(percent, absolute);
  }

  /** The largest time to detect still within tolerance of {@code baseline}. */
  public Duration allowed(Duration baseline) {
    Duration allowed = baseline;
    if (percent.isPresent()) {
      long extra =
          percent
              .get()
              .multiply(BigDecimal.valueOf(baseline.toMillis()))
              .movePointLeft(2)
              .longValue();
      allowed = Duration.ofMillis(baseline.toMillis() + extra);
    }
    if (absolute.isPresent() && baseline.plus(absolute.get()).compareTo(allowed) > 0) {
      allowed = baseline.plus(absolute.get());
    }
    return allowed;
  }

  public String text() {
    List<String> parts = new ArrayList<>();
    percent.ifPresent(p -> parts.add(p.stripTrailingZeros().toPlainString() + "%"));
    absolute.ifPresent(d -> parts.add(Durations.format(d)));
    return String.join(" or ", parts) + (parts.size() > 1 ? ", whichever is larger" : "");
  }
}
