package dev.firedrill.experiment;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * A service level indicator measured as one PromQL instant query, with the range that counts as
 * steady. {@code min} and {@code max} are inclusive bounds; at least one is set.
 */
public record Sli(
    String name, String query, OptionalDouble min, OptionalDouble max, Missing missing) {

  public Sli {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(query, "query");
    min = min == null ? OptionalDouble.empty() : min;
    max = max == null ? OptionalDouble.empty() : max;
    missing = missing == null ? Missing.FAIL : missing;
    if (min.isEmpty() && max.isEmpty()) {
      throw new IllegalArgumentException("SLI " + name + " needs min or max");
    }
  }

  /** Whether a value lies inside the steady-state range. NaN is never inside. */
  public boolean within(double value) {
    if (Double.isNaN(value)) {
      return false;
    }
    return (min.isEmpty() || value >= min.getAsDouble())
        && (max.isEmpty() || value <= max.getAsDouble());
  }

  /**
   * A PromQL filter that answers a sample only while this SLI is within its bounds: what a caller
   * waits on until the system is in its steady state.
   */
  public String withinBoundsQuery() {
    String filter = "(" + query + ")";
    if (min.isPresent()) {
      filter = "(" + filter + " >= " + min.getAsDouble() + ")";
    }
    if (max.isPresent()) {
      filter = "(" + filter + " <= " + max.getAsDouble() + ")";
    }
    return filter;
  }

  /** The range as people write it: {@code <= 0.005}, {@code >= 0.99}, {@code 0.9..1}. */
  public String rangeText() {
    if (min.isPresent() && max.isPresent()) {
      return Numbers.format(min.getAsDouble()) + ".." + Numbers.format(max.getAsDouble());
    }
    return max.isPresent()
        ? "<= " + Numbers.format(max.getAsDouble())
        : ">= " + Numbers.format(min.getAsDouble());
  }
}
