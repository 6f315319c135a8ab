package dev.firedrill.experiment;

import java.util.Objects;

/** Abort when an SLI is beyond a threshold in {@code consecutive} measurements in a row. */
public record AbortRule(String sli, Direction direction, double threshold, int consecutive) {

  public enum Direction {
    ABOVE("above", ">"),
    BELOW("below", "<");

    private final String word;
    private final String symbol;

    Direction(String word, String symbol) {
      this.word = word;
      this.symbol = symbol;
    }

    public String word() {
      return word;
    }

    public String symbol() {
      return symbol;
    }
  }

  public AbortRule {
    Objects.requireNonNull(sli, "sli");
    Objects.requireNonNull(direction, "direction");
    if (consecutive < 1) {
      throw new IllegalArgumentException("consecutive must be at least 1");
    }
  }

  public boolean breachedBy(double value) {
    return direction == Direction.ABOVE ? value > threshold : value < threshold;
  }
}
