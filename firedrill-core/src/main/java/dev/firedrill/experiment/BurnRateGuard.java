package dev.firedrill.experiment;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Aborts when the error budget burns faster than {@code max} times the sustainable rate. burn =
 * error ratio / (1 - objective). {@code remainingBudget}, when given, is a query for the share of
 * the window's budget that is left (0..1).
 */
public record BurnRateGuard(
    double objective,
    Duration window,
    String errorRatioQuery,
    double max,
    Missing missing,
    Optional<String> remainingBudget) {

  public static final Duration DEFAULT_WINDOW = Duration.ofDays(30);

  public BurnRateGuard {
    Objects.requireNonNull(errorRatioQuery, "errorRatioQuery");
    window = window == null ? DEFAULT_WINDOW : window;
    missing = missing == null ? Missing.FAIL : missing;
    remainingBudget = remainingBudget == null ? Optional.empty() : remainingBudget;
    if (!(objective > 0 && objective < 1)) {
      throw new IllegalArgumentException("objective must lie strictly between 0 and 1");
    }
  }

  public double burnRate(double errorRatio) {
    return errorRatio / (1 - objective);
  }
}
