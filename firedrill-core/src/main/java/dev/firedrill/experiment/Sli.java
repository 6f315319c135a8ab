package dev.firedrill.experiment;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A service level indicator measured as one PromQL instant query, with the range that counts as
 * steady. {@code min} and {@code max} are inclusive bounds on the query's value; an SLI with a
 * {@link Control} is also held to its bounds against the control group. At least one bound is set.
 */
public record Sli(
    String name,
    String query,
    OptionalDouble min,
    OptionalDouble max,
    Missing missing,
    Optional<Control> control) {

  public Sli {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(query, "query");
    min = min == null ? OptionalDouble.empty() : min;
    max = max == null ? OptionalDouble.empty() : max;
    missing = missing == null ? Missing.FAIL : missing;
    control = control == null ? Optional.empty() : control;
    if (min.isEmpty() && max.isEmpty() && control.isEmpty()) {
      throw new IllegalArgumentException("SLI " + name + " needs min, max or a control");
    }
  }

  /** An SLI without a control group. */
  public Sli(String name, String query, OptionalDouble min, OptionalDouble max, Missing missing) {
    this(name, query, min, max, missing, Optional.empty());
  }

  /** Whether a value lies inside the steady-state range. NaN is never inside. */
  public boolean within(double value) {
    if (Double.isNaN(value)) {
      return false;
    }
    return (min.isEmpty() || value >= min.getAsDouble())
        && (max.isEmpty() || value <= max.getAsDouble());
  }

  /** Whether the experiment's value and the control's (when there is one) are both in bounds. */
  public boolean within(double value, OptionalDouble controlValue) {
    return within(value)
        && control
            .map(c -> controlValue.isPresent() && c.within(value, controlValue.getAsDouble()))
            .orElse(true);
  }

  /**
   * A PromQL filter that answers a sample only while this SLI is within its bounds: what a caller
   * waits on until the system is in its steady state.
   */
  public String withinBoundsQuery() {
    String filter = "(" + Targets.BEFORE_INJECTION.resolve(query) + ")";
    if (min.isPresent()) {
      filter = "(" + filter + " >= " + min.getAsDouble() + ")";
    }
    if (max.isPresent()) {
      filter = "(" + filter + " <= " + max.getAsDouble() + ")";
    }
    return filter;
  }

  /**
   * The range as people write it: {@code <= 0.005}, {@code >= 0.99}, {@code 0.9..1}, {@code <= 0.5,
   * delta <= 0.05 vs control}.
   */
  public String rangeText() {
    String own = min.isEmpty() && max.isEmpty() ? "" : Numbers.rangeText(min, max);
    String versus = control.map(Control::rangeText).orElse("");
    return own.isEmpty() ? versus : versus.isEmpty() ? own : own + ", " + versus;
  }
}
