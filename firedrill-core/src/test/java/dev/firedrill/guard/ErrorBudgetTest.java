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

  @Test
  void aWorstCaseExactlyAtTheCeilingIsAllowed() {
    // 100 min at 50% allows 50 min; all traffic for 20 min spends 20 min, 40% of it.
    ErrorBudget atCeiling =
        new ErrorBudget(
            0.5, Duration.ofMinutes(100), 1.0, Duration.ofMinutes(20), 0.4, OptionalDouble.empty());
    assertThat(atCeiling.worstCaseShare()).isEqualTo(0.4);
    assertThat(atCeiling.refusal()).isEmpty();
  }

  @Test
  void aRemainingBudgetExactlyCoveringTheWorstCaseIsEnough() {
    ErrorBudget exact =
        new ErrorBudget(
            0.5, Duration.ofMinutes(100), 1.0, Duration.ofMinutes(25), 1.0, OptionalDouble.of(0.5));
    assertThat(exact.refusal()).isEmpty();
    assertThat(exact.withRemainingShare(0.49).refusal())
        .contains(
            "the remaining budget, 24.50 min (49% of 50.00 min), does not cover the worst case of 25.00 min");
  }

  @Test
  void theRemainingBudgetIsPrintedWithTheArithmetic() {
    assertThat(fivePercentForTenMinutes.withRemainingShare(0.25).text())
        .endsWith("(ceiling 5%); remaining 25% = 10.80 min");
  }

  @Test
  void noRemainingShareIsNone() {
    ErrorBudget unknown =
        new ErrorBudget(0.999, Duration.ofDays(30), 0.05, Duration.ofMinutes(10), 0.05, null);
    assertThat(unknown.remainingShare()).isEmpty();
  }
}
