package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import dev.firedrill.experiment.BurnRateGuard;
import dev.firedrill.experiment.Missing;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MeasuredEffectTest {

  private static final Optional<BurnRateGuard> GUARD =
      Optional.of(
          new BurnRateGuard(0.999, Duration.ofDays(30), "q", 1000, Missing.FAIL, Optional.empty()));
  private static final Instant INJECTED = Instant.parse("2026-12-02T10:00:00Z");
  private static final Optional<Duration> FIVE_SECONDS = Optional.of(Duration.ofSeconds(5));

  private static Measurement burn(double seconds, double burn) {
    return new Measurement(
        INJECTED.plusMillis((long) (seconds * 1000)),
        List.of(),
        Optional.of(Reading.of("burn_rate", burn, true, "<= 1000")));
  }

  @Test
  void theLargestBurnRateTimesTheBudgetIsTheErrorRatio() {
    List<Measurement> during =
        List.of(
            burn(5, 20),
            burn(6, 200),
            burn(7, 180),
            new Measurement(
                INJECTED.plusSeconds(8),
                List.of(),
                Optional.of(Reading.noData("burn_rate", "<= 1000", "empty result"))));

    assertThat(MeasuredEffect.errorRatio(during, GUARD, INJECTED, FIVE_SECONDS).getAsDouble())
        .isCloseTo(0.2, offset(1e-9));
  }

  @Test
  void readingsWhoseWindowStillHoldsTheTimeBeforeTheFaultDoNotCount() {
    // 1.2s into an outage a 5s window reads 24%; at 5s it reads the whole fault
    List<Measurement> during = List.of(burn(1.2, 240), burn(3, 600), burn(5, 1000));

    assertThat(MeasuredEffect.errorRatio(during, GUARD, INJECTED, FIVE_SECONDS).getAsDouble())
        .isCloseTo(1.0, offset(1e-9));
    assertThat(MeasuredEffect.errorRatio(during.subList(0, 2), GUARD, INJECTED, FIVE_SECONDS))
        .as("an abort before the window filled leaves the outage's floor")
        .isEmpty();
  }

  @Test
  void everyReadingOfAGaugeWithoutAWindowCounts() {
    assertThat(
            MeasuredEffect.errorRatio(List.of(burn(0.5, 300)), GUARD, INJECTED, Optional.empty())
                .getAsDouble())
        .isCloseTo(0.3, offset(1e-9));
  }

  @Test
  void withoutAGuardOrAReadingNothingIsMeasured() {
    assertThat(
            MeasuredEffect.errorRatio(
                List.of(burn(9, 200)), Optional.empty(), INJECTED, FIVE_SECONDS))
        .isEmpty();
    assertThat(MeasuredEffect.errorRatio(List.of(), GUARD, INJECTED, FIVE_SECONDS)).isEmpty();
  }
}
