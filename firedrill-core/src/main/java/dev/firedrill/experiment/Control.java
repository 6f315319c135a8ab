package dev.firedrill.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The control group of an SLI: a query over the pods the faults left alone, measured at the same
 * instant as the SLI's own query, and the bounds on the experiment's value minus the control's
 * ({@code delta}) and on the experiment's value divided by the control's ({@code ratio}). Traffic
 * that rises and falls over the day, and deploys, move both groups alike and cancel out of these.
 * All bounds are inclusive; at least one is set.
 */
public record Control(
    String query,
    OptionalDouble minDelta,
    OptionalDouble maxDelta,
    OptionalDouble minRatio,
    OptionalDouble maxRatio) {

  public Control {
    Objects.requireNonNull(query, "query");
    minDelta = minDelta == null ? OptionalDouble.empty() : minDelta;
    maxDelta = maxDelta == null ? OptionalDouble.empty() : maxDelta;
    minRatio = minRatio == null ? OptionalDouble.empty() : minRatio;
    maxRatio = maxRatio == null ? OptionalDouble.empty() : maxRatio;
    if (minDelta.isEmpty() && maxDelta.isEmpty() && minRatio.isEmpty() && maxRatio.isEmpty()) {
      throw new IllegalArgumentException(
          "a control needs max_delta, min_delta, max_ratio or min_ratio");
    }
  }

  public boolean hasRatio() {
    return minRatio.isPresent() || maxRatio.isPresent();
  }

  /**
   * Whether the experiment's value stays within the bounds against the control's. A ratio bound
   * with a control of 0 has nothing to divide by: never within (the caller reports it as no data).
   */
  public boolean within(double experiment, double control) {
    double delta = experiment - control;
    if (!inside(delta, minDelta, maxDelta)) {
      return false;
    }
    if (!hasRatio()) {
      return true;
    }
    return control != 0 && inside(experiment / control, minRatio, maxRatio);
  }

  /** The bounds as people write them: {@code delta <= 0.05, ratio <= 1.2}. */
  public String rangeText() {
    List<String> parts = new ArrayList<>();
    if (minDelta.isPresent() || maxDelta.isPresent()) {
      parts.add("delta " + Numbers.rangeText(minDelta, maxDelta));
    }
    if (hasRatio()) {
      parts.add("ratio " + Numbers.rangeText(minRatio, maxRatio));
    }
    return String.join(", ", parts) + " vs control";
  }

  private static boolean inside(double value, OptionalDouble min, OptionalDouble max) {
    return !Double.isNaN(value)
        && (min.isEmpty() || value >= min.getAsDouble())
        && (max.isEmpty() || value <= max.getAsDouble());
  }
}
