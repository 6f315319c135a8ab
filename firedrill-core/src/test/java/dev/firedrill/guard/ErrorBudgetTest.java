package dev.firedrill.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class ErrorBudgetTest {

  private final ErrorBudget fivePercentForTenMinutes =
      new ErrorBudget(
          0.999, Duration.ofDays(30), 0.05, Duration.ofMinutes(10), 0.05, OptionalDouble.empty());

  @Test
  void aThirtyDayWindowAtThreeNinesAllowsFortyThreePointTwoMinutes() {
    assertThat(fivePercentForTenMinutes.budgetMinutes()).isCloseTo(43.2, within(1e-9));
  }

  @Test
  void fivePercentOfTrafficForTenMinutesSpendsHalfAnOutageMinute() {
    assertThat(fivePercentForTenMinutes.worstCaseMinutes()).isCloseTo(0.5, within(1e-9));
    assertThat(fivePercentForTenMinutes.worstCaseShare()).isCloseTo(0.5 / 43.2, within(1e-12));
    assertThat(fivePercentForTenMinutes.refusal()).isEmpty();
  }

  @Test
  void theArithmeticIsPrintedInFull() {
    assertThat(fivePercentForTenMinutes.text())
        .isEqualTo(
            "error budget: 99.9% over 30d allows 43.20 min of total outage; worst case 5% of traffic for 10m"
                + " spends 0.50 min, 1.157% of the budget (ceiling 5%)");
  }

  @Test
  void aSpendAboveTheCeilingIsRefused() {
    ErrorBudget wide =
        new ErrorBudget(
            0.999, Duration.ofDays(30), 0.5, Duration.ofMinutes(10), 0.05, OptionalDouble.empty());

    assertThat(wide.worstCaseShare()).isCloseTo(5 / 43.2, within(1e-12));
    assertThat(wide.refusal())
        .contains(
            "worst-case spend 11.57% of the error budget is above the ceiling of 5% (blast_radius.budget_ceiling)");
  }

  @Test
  void theRemainingBudgetMustCoverTheWorstCase() {
    ErrorBudget almostSpent = fivePercentForTenMinutes.withRemainingShare(0.01);

    assertThat(almostSpent.refusal())
        .contains(
            "the remaining budget, 0.43 min (1% of 43.20 min), does not cover the worst case of 0.50 min");
    assertThat(fivePercentForTenMinutes.withRemainingShare(0.5).refusal()).isEmpty();
  }
}
