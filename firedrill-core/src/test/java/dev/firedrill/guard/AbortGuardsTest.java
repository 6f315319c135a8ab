package dev.firedrill.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.experiment.Abort;
import dev.firedrill.experiment.AbortRule;
import dev.firedrill.experiment.BurnRateGuard;
import dev.firedrill.experiment.Missing;
import dev.firedrill.experiment.Sli;
import dev.firedrill.experiment.SteadyState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class AbortGuardsTest {

  private static final SteadyState STEADY =
      new SteadyState(
          Duration.ofSeconds(5),
          List.of(
              new Sli(
                  "error_ratio",
                  "q",
                  OptionalDouble.empty(),
                  OptionalDouble.of(0.01),
                  Missing.FAIL),
              new Sli(
                  "availability",
                  "q",
                  OptionalDouble.of(0.99),
                  OptionalDouble.empty(),
                  Missing.INCONCLUSIVE)));

  private final List<Measurement> during = new ArrayList<>();

  private AbortGuards guards(Missing burnMissing, AbortRule... rules) {
    BurnRateGuard burn =
        new BurnRateGuard(0.999, Duration.ofDays(30), "q", 14.4, burnMissing, Optional.empty());
    return new AbortGuards(
        new Abort(List.of(rules), Optional.of(burn), 2, Optional.empty()), STEADY);
  }

  private void add(Reading errorRatio, Reading burn) {
    Reading availability = Reading.of("availability", 1, true, ">= 0.99");
    during.add(
        new Measurement(
            Instant.EPOCH.plusSeconds(during.size() * 5L),
            List.of(errorRatio, availability),
            Optional.of(burn)));
  }

  private static Reading ratio(double value) {
    return Reading.of("error_ratio", value, value <= 0.01, "<= 0.01");
  }

  private static Reading burn(double value) {
    return new Reading(
        "burn_rate",
        value <= 14.4 ? Reading.Status.OK : Reading.Status.BREACH,
        OptionalDouble.of(value),
        "<= 14.4",
        "error ratio x against an objective of 99.9%");
  }

  @Test
  void aRuleNeedsItsCountOfConsecutiveBreaches() {
    AbortGuards guards =
        guards(Missing.FAIL, new AbortRule("error_ratio", AbortRule.Direction.ABOVE, 0.05, 2));
    add(ratio(0.06), burn(1));
    assertThat(guards.check(during)).isEmpty();
    add(ratio(0.001), burn(1));
    add(ratio(0.07), burn(1));
    assertThat(guards.check(during)).isEmpty();
    add(ratio(0.08), burn(1));
    assertThat(guards.check(during))
        .contains(new AbortDecision("error_ratio 0.08 > 0.05 in 2 measurements in a row"));
  }

  @Test
  void aBelowRuleAbortsOnLowValues() {
    AbortGuards guards =
        guards(Missing.FAIL, new AbortRule("availability", AbortRule.Direction.BELOW, 0.9, 1));
    during.add(
        new Measurement(
            Instant.EPOCH,
            List.of(ratio(0.001), Reading.of("availability", 0.5, false, ">= 0.99")),
            Optional.of(burn(1))));
    assertThat(guards.check(during))
        .contains(new AbortDecision("availability 0.5 < 0.9 in 1 measurement"));
  }

  @Test
  void theBurnRateAbortsAboveItsMaximum() {
    AbortGuards guards = guards(Missing.FAIL);
    add(ratio(0.001), burn(14.4));
    assertThat(guards.check(during)).isEmpty();
    add(ratio(0.02), burn(20));
    assertThat(guards.check(during))
        .contains(
            new AbortDecision(
                "burn rate 20 above 14.4 (error ratio x against an objective of 99.9%)"));
  }

  @Test
  void missingGuardDataIsFailureUnlessDeclaredInconclusive() {
    add(ratio(0.001), Reading.noData("burn_rate", "<= 14.4", "empty result for q"));
    assertThat(guards(Missing.FAIL).check(during))
        .contains(
            new AbortDecision(
                "burn-rate guard has no data (empty result for q); missing data is failure unless abort.burn_rate.missing is inconclusive"));
    assertThat(guards(Missing.INCONCLUSIVE).check(during)).isEmpty();
  }

  @Test
  void anSliWatchedByARuleThatGoesDarkAborts() {
    AbortGuards guards =
        guards(
            Missing.INCONCLUSIVE, new AbortRule("error_ratio", AbortRule.Direction.ABOVE, 0.05, 3));
    add(Reading.noData("error_ratio", "<= 0.01", "empty result for q"), burn(1));
    assertThat(guards.check(during))
        .contains(
            new AbortDecision(
                "error_ratio has no data (empty result for q); an abort rule watches it and missing data is failure"));
  }

  @Test
  void probeErrorsAbortOnlyWhenConsecutive() {
    AbortGuards guards = guards(Missing.FAIL);
    Reading down = Reading.error("error_ratio", "<= 0.01", "cannot reach Prometheus");
    add(down, burn(1));
    add(ratio(0.001), burn(1));
    add(down, burn(1));
    assertThat(guards.check(during)).isEmpty();
    add(down, burn(1));
    assertThat(guards.check(during))
        .contains(
            new AbortDecision(
                "2 probe errors in a row; the drill cannot see the system: cannot reach Prometheus"));
  }

  @Test
  void anSliWatchedByARuleThatMayBeMissingDoesNotAbortWhenItGoesDark() {
    AbortGuards guards =
        guards(
            Missing.INCONCLUSIVE, new AbortRule("availability", AbortRule.Direction.BELOW, 0.9, 1));
    during.add(
        new Measurement(
            Instant.EPOCH,
            List.of(ratio(0.001), Reading.noData("availability", ">= 0.99", "empty result")),
            Optional.of(burn(1))));
    assertThat(guards.check(during)).isEmpty();
  }

  @Test
  void probeErrorsAbortAsSoonAsThereAreAsManyAsTheLimit() {
    AbortGuards guards = guards(Missing.FAIL);
    Reading down = Reading.error("error_ratio", "<= 0.01", "cannot reach Prometheus");
    add(down, burn(1));
    assertThat(guards.check(during)).isEmpty();
    add(down, burn(1));
    assertThat(guards.check(during))
        .contains(
            new AbortDecision(
                "2 probe errors in a row; the drill cannot see the system: cannot reach Prometheus"));
  }

  @Test
  void theProbeErrorReasonQuotesTheFailedQueryNotAHealthyOne() {
    AbortGuards guards = guards(Missing.FAIL);
    Reading refused = Reading.error("availability", ">= 0.99", "connection refused");
    for (int i = 0; i < 2; i++) {
      during.add(
          new Measurement(
              Instant.EPOCH.plusSeconds(i * 5L),
              List.of(Reading.of("error_ratio", 0.001, true, "<= 0.01"), refused),
              Optional.of(burn(1))));
    }
    assertThat(guards.check(during))
        .contains(
            new AbortDecision(
                "2 probe errors in a row; the drill cannot see the system: connection refused"));
  }

  @Test
  void noMeasurementNoDecision() {
    assertThat(guards(Missing.FAIL).check(during)).isEmpty();
  }
}
