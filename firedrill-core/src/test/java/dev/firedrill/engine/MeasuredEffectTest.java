package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

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

  private static Measurement burn(double burn) {
    return new Measurement(
        Instant.EPOCH, List.of(), Optional.of(Reading.of("burn_rate", burn, true, "<= 1000")));
  }

  @Test
  void theLargestBurnRateTimesTheBudgetIsTheErrorRatio() {
    List<Measurement> during =
        List.of(
            burn(20),
            burn(200),
            burn(180),
            new Measurement(
                Instant.EPOCH,
                List.of(),
                Optional.of(Reading.noData("burn_rate", "<= 1000", "empty result"))));

    assertThat(MeasuredEffect.errorRatio(during, GUARD).getAsDouble())
        .isCloseTo(0.2, org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void withoutAGuardOrAReadingNothingIsMeasured() {
    assertThat(MeasuredEffect.errorRatio(List.of(burn(200)), Optional.empty())).isEmpty();
    assertThat(MeasuredEffect.errorRatio(List.of(), GUARD)).isEmpty();
  }
}
