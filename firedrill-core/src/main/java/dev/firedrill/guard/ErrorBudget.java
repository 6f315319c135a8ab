package dev.firedrill.guard;

import dev.firedrill.experiment.Numbers;
import dev.firedrill.time.Durations;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The error-budget arithmetic of one experiment. The budget is the minutes of total outage the SLO
 * window allows; the worst case assumes every request the faults can touch fails for the whole
 * method.
 */
public record ErrorBudget(
    double objective,
    Duration window,
    double trafficShare,
    Duration duration,
    double ceiling,
    OptionalDouble remainingShare) {

  public ErrorBudget {
    remainingShare = remainingShare == null ? OptionalDouble.empty() : remainingShare;
  }

  public double budgetMinutes() {
    return minutes(window) * (1 - objective);
  }

  public double worstCaseMinutes() {
    return trafficShare * minutes(duration);
  }

  /** The worst case as a share of the whole window's budget. */
  public double worstCaseShare() {
    return worstCaseMinutes() / budgetMinutes();
  }

  public ErrorBudget withRemainingShare(double share) {
    return new ErrorBudget(
        objective, window, trafficShare, duration, ceiling, OptionalDouble.of(share));
  }

  /** Why this experiment may not spend this budget, or empty when it may. */
  public Optional<String> refusal() {
    if (worstCaseShare() > ceiling) {
      return Optional.of(
          "worst-case spend "
              + percent(worstCaseShare())
              + " of the error budget is above the ceiling of "
              + percent(ceiling)
              + " (blast_radius.budget_ceiling)");
    }
    if (remainingShare.isPresent()) {
      double remainingMinutes = remainingShare.getAsDouble() * budgetMinutes();
      if (remainingMinutes < worstCaseMinutes()) {
        return Optional.of(
            "the remaining budget, "
                + minutesText(remainingMinutes)
                + " ("
                + percent(remainingShare.getAsDouble())
                + " of "
                + minutesText(budgetMinutes())
                + "), does not cover the worst case of "
                + minutesText(worstCaseMinutes()));
      }
    }
    return Optional.empty();
  }

  /** The arithmetic as the plan prints it. */
  public String text() {
    String line =
        "error budget: "
            + percent(objective)
            + " over "
            + Durations.format(window)
            + " allows "
            + minutesText(budgetMinutes())
            + " of total outage; worst case "
            + Numbers.format(trafficShare * 100)
            + "% of traffic for "
            + Durations.format(duration)
            + " spends "
            + minutesText(worstCaseMinutes())
            + ", "
            + percent(worstCaseShare())
            + " of the budget (ceiling "
            + percent(ceiling)
            + ")";
    if (remainingShare.isPresent()) {
      line +=
          "; remaining "
              + percent(remainingShare.getAsDouble())
              + " = "
              + minutesText(remainingShare.getAsDouble() * budgetMinutes());
    }
    return line;
  }

  private static double minutes(Duration duration) {
    return duration.toMillis() / 60_000.0;
  }

  private static String minutesText(double minutes) {
    return String.format(Locale.ROOT, "%.2f min", minutes);
  }

  private static String percent(double share) {
    return Numbers.format(share * 100) + "%";
  }
}
