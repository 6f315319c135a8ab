package dev.firedrill.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * The filter the demo waits on before its drill: a sample only while the SLI is within its bounds.
 */
class SliWithinBoundsTest {

  @Test
  void aMaximumKeepsTheSamplesAtOrBelowIt() {
    Sli sli =
        new Sli(
            "p99",
            "service:p99{service=\"checkout\"}",
            OptionalDouble.empty(),
            OptionalDouble.of(0.25),
            null);
    assertThat(sli.withinBoundsQuery()).isEqualTo("((service:p99{service=\"checkout\"}) <= 0.25)");
  }

  @Test
  void bothBoundsFilterInTurn() {
    Sli sli =
        new Sli(
            "ratio",
            "checkout:orders_completed:ratio5s",
            OptionalDouble.of(0.99),
            OptionalDouble.of(1),
            null);
    assertThat(sli.withinBoundsQuery())
        .isEqualTo("(((checkout:orders_completed:ratio5s) >= 0.99) <= 1.0)");
  }
}
