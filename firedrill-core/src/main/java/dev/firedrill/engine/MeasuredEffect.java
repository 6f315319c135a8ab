package dev.firedrill.engine;

import dev.firedrill.experiment.BurnRateGuard;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The size of the fault as the drill measured it, for the detection floors: the largest error ratio
 * while the faults were on, read from the burn-rate guard (the SLO's own error ratio: burn rate
 * times the error budget). The largest, because the guard's rate window smooths the fault's start:
 * any smaller reading would overstate the floor. Empty without a guard or without a reading.
 */
final class MeasuredEffect {

  private MeasuredEffect() {}

  static OptionalDouble errorRatio(List<Measurement> during, Optional<BurnRateGuard> guard) {
    if (guard.isEmpty()) {
      return OptionalDouble.empty();
    }
    double budget = 1 - guard.get().objective();
    return during.stream()
        .flatMap(m -> m.burnRate().stream())
        .map(Reading::value)
        .filter(OptionalDouble::isPresent)
        .mapToDouble(value -> value.getAsDouble() * budget)
        .max();
  }
}
