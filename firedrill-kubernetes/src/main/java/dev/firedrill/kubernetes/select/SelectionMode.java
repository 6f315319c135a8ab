package dev.firedrill.kubernetes.select;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Chaos Mesh's selection modes, as its objects and firedrill's files write them. */
public enum SelectionMode {
  /** One pod. */
  ONE,
  /** Every matching pod. */
  ALL,
  /** {@code value} pods (fewer when fewer match). */
  FIXED,
  /** {@code value} percent of the matching pods, rounded up. */
  FIXED_PERCENT,
  /** A percentage drawn from 0 to {@code value}, rounded up; the draw may be 0. */
  RANDOM_MAX_PERCENT;

  /** The name in files: {@code fixed-percent}. */
  public String text() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Whether the mode needs a {@code value}. */
  public boolean needsValue() {
    return this == FIXED || this == FIXED_PERCENT || this == RANDOM_MAX_PERCENT;
  }

  /** Whether the value is a percentage (1 to 100) rather than a count. */
  public boolean percentage() {
    return this == FIXED_PERCENT || this == RANDOM_MAX_PERCENT;
  }

  /** Every name, in the order messages list them. */
  public static List<String> names() {
    return Arrays.stream(values()).map(SelectionMode::text).toList();
  }

  /** The mode written {@code text}, such as {@code fixed-percent}. */
  public static SelectionMode of(String text) {
    return valueOf(text.strip().toUpperCase(Locale.ROOT).replace('-', '_'));
  }
}
