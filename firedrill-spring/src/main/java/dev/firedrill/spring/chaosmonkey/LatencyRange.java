package dev.firedrill.spring.chaosmonkey;

import dev.firedrill.time.Durations;
import java.time.Duration;
import java.util.Optional;

/** Chaos Monkey's latencyRangeStart..latencyRangeEnd, in whole milliseconds as it takes them. */
public record LatencyRange(long startMillis, long endMillis) {

  public static final String EXPECTED =
      "expected a latency range such as \"100ms..300ms\" (or one duration such as \"200ms\")";

  public LatencyRange {
    if (startMillis < 0 || endMillis < startMillis || endMillis > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("expected 0 <= start <= end");
    }
  }

  /**
   * {@code 100ms..300ms}, or one duration for a fixed latency; empty when the text is none of them
   * (with whole milliseconds, start at most end).
   */
  public static Optional<LatencyRange> parse(String text) {
    String[] parts = text.strip().split("\\.\\.", -1);
    if (parts.length > 2) {
      return Optional.empty();
    }
    try {
      Duration start = Durations.parse(parts[0].strip());
      Duration end = parts.length == 2 ? Durations.parse(parts[1].strip()) : start;
      if (start.toNanos() % 1_000_000 != 0
          || end.toNanos() % 1_000_000 != 0
          || end.compareTo(start) < 0
          || end.toMillis() > Integer.MAX_VALUE) {
        return Optional.empty();
      }
      return Optional.of(new LatencyRange(start.toMillis(), end.toMillis()));
    } catch (Durations.Invalid | ArithmeticException e) {
      return Optional.empty();
    }
  }

  /** As the file writes it: {@code 100ms..300ms}. */
  public String text() {
    return Durations.format(Duration.ofMillis(startMillis))
        + ".."
        + Durations.format(Duration.ofMillis(endMillis));
  }
}
