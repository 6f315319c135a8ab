package dev.firedrill.engine;

import dev.firedrill.experiment.BurnRateGuard;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The size of the fault as the drill measured it, for the detection floors: the largest error ratio
 * while the faults were on, read from the burn-rate guard (the SLO's own error ratio: burn rate
 * times the error budget).
 *
 * <p>Only readings taken once the guard's rate window lay wholly inside the fault count: before
 * that the window still holds healthy traffic from before the injection, and its ratio is the
 * fault's diluted. A drill the guard aborts in its first interval has only such readings; taking
 * them would shrink the measured ratio and stretch every floor past the detection it bounds (a 5s
 * window read 1.2s into an outage says 24%). Among the readings that count, the largest, because a
 * smaller one would overstate the floor. Empty without a guard or without a reading that counts:
 * the floor then assumes an outage, which stays a lower bound.
 */
final class MeasuredEffect {

  private MeasuredEffect() {}

  /**
   * @param window the longest range the guard's query reads (empty for an instant gauge, whose
   *     every reading counts)
   */
  static OptionalDouble errorRatio(
      List<Measurement> during,
      Optional<BurnRateGuard> guard,
      Instant injectedAt,
      Optional<Duration> window) {
    if (guard.isEmpty()) {
      return OptionalDouble.empty();
    }
    double budget = 1 - guard.get().objective();
    Instant filled = injectedAt.plus(window.orElse(Duration.ZERO));
    return during.stream()
        .filter(m -> !m.at().isBefore(filled))
        .flatMap(m -> m.burnRate().stream())
        .map(Reading::value)
        .filter(OptionalDouble::isPresent)
        .mapToDouble(value -> value.getAsDouble() * budget)
        .max();
  }
}
