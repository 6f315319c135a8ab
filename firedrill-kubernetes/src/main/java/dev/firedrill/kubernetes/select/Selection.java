package dev.firedrill.kubernetes.select;

import java.util.Objects;

/**
 * How many of the matching pods a fault picks, with Chaos Mesh's rounding: a percentage selection
 * rounds up, so {@code fixed-percent: 34} of 3 pods is 2 pods.
 *
 * @param value a count for {@code fixed}, a percentage (1 to 100) for the percent modes, 0 for
 *     {@code one} and {@code all}
 */
public record Selection(SelectionMode mode, int value) {

  public Selection {
    Objects.requireNonNull(mode, "mode");
    if (mode == SelectionMode.FIXED && value < 1) {
      throw new IllegalArgumentException("mode fixed needs a value of at least 1");
    }
    if (mode.percentage() && (value < 1 || value > 100)) {
      throw new IllegalArgumentException(
          "mode " + mode.text() + " needs a percentage from 1 to 100, got " + value);
    }
    if (!mode.needsValue()) {
      value = 0;
    }
  }

  /** The most pods it can pick from {@code count}: what the blast radius is checked against. */
  public int worstCase(int count) {
    return switch (mode) {
      case ONE -> Math.min(1, count);
      case ALL -> count;
      case FIXED -> Math.min(value, count);
      case FIXED_PERCENT, RANDOM_MAX_PERCENT -> percentOf(count, value);
    };
  }

  /** How many it picks from {@code count}, drawing the random percentage from {@code chooser}. */
  public int size(int count, Chooser chooser) {
    return mode == SelectionMode.RANDOM_MAX_PERCENT
        ? percentOf(count, chooser.percentage(value))
        : worstCase(count);
  }

  /** {@code percent}% of {@code count}, rounded up, in whole numbers (no floating point). */
  static int percentOf(int count, int percent) {
    return (int) ((count * (long) percent + 99) / 100);
  }

  /** As files write it: {@code fixed-percent 34}, {@code one}. */
  public String text() {
    return mode.needsValue()
        ? mode.text() + " " + value + (mode.percentage() ? "%" : "")
        : mode.text();
  }
}
