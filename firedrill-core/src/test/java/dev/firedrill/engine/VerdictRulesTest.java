package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.experiment.Missing;
import dev.firedrill.experiment.Sli;
import dev.firedrill.experiment.SteadyState;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The verdict table, row by row, from the strongest evidence to the weakest. */
class VerdictRulesTest {

  private static final Instant START = Instant.parse("2026-11-29T10:00:00Z");
  private static final Duration RECOVERY = Duration.ofMinutes(1);

  private final VerdictRules rules =
      new VerdictRules(
          new SteadyState(
              Duration.ofSeconds(5),
              List.of(
                  new Sli(
                      "errors", "q", OptionalDouble.empty(), OptionalDouble.of(0.01), Missing.FAIL),
                  new Sli(
                      "latency",
                      "q",
                      OptionalDouble.empty(),
                      OptionalDouble.of(0.3),
                      Missing.INCONCLUSIVE))));

  private static Measurement at(int seconds, Reading errors, Reading latency) {
    return new Measurement(START.plusSeconds(seconds), List.of(errors, latency), Optional.empty());
  }

  private static Measurement ok(int seconds) {
    return at(
        seconds,
        Reading.of("errors", 0.001, true, "<= 0.01"),
        Reading.of("latency", 0.1, true, "<= 0.3"));
  }

  private VerdictRules.Decision decide(
      Optional<String> injectFailure,
      Optional<String> abort,
      List<Measurement> during,
      List<Measurement> after,
      Optional<Duration> recovered) {
    return rules.decide(
        new VerdictRules.Evidence(START, injectFailure, abort, during, after, recovered, RECOVERY));
  }

  @Test
  void aFaultThatCouldNotBeInjectedIsFailedWhateverElseHappened() {
    var decision =
        decide(
            Optional.of("cpu-burn: no java"),
            Optional.of("burn rate 20 above 14.4"),
            List.of(),
            List.of(ok(1)),
            Optional.of(Duration.ZERO));
    assertThat(decision)
        .isEqualTo(
            new VerdictRules.Decision(
                Verdict.FAILED,
                "a fault could not be injected: cpu-burn: no java; recovered 0.0s after the rollback"));
  }

  @Test
  void anAbortOutranksABreach() {
    Measurement breach =
        at(
            5,
            Reading.of("errors", 0.2, false, "<= 0.01"),
            Reading.of("latency", 0.1, true, "<= 0.3"));
    var decision =
        decide(
            Optional.empty(),
            Optional.of("burn rate 20 above 14.4"),
            List.of(breach),
            List.of(ok(9)),
            Optional.of(Duration.ofMillis(2500)));
    assertThat(decision)
        .isEqualTo(
            new VerdictRules.Decision(
                Verdict.ABORTED, "burn rate 20 above 14.4; recovered 2.5s after the rollback"));
  }

  @Test
  void aBreachDuringTheFaultIsDeviation() {
    Measurement breach =
        at(
            10,
            Reading.of("errors", 0.02, false, "<= 0.01"),
            Reading.of("latency", 0.1, true, "<= 0.3"));
    var decision =
        decide(
            Optional.empty(),
            Optional.empty(),
            List.of(ok(5), breach),
            List.of(ok(15)),
            Optional.of(Duration.ZERO));
    assertThat(decision)
        .isEqualTo(
            new VerdictRules.Decision(
                Verdict.DEVIATED,
                "hypothesis broken while the faults were on, first at +10.0s: errors 0.02 outside <= 0.01, latency 0.1 <= 0.3;"
                    + " recovered 0.0s after the rollback"));
  }

  @Test
  void noDataOnAnSliWhereMissingIsFailureIsDeviation() {
    Measurement dark =
        at(
            5,
            Reading.noData("errors", "<= 0.01", "empty result for q"),
            Reading.of("latency", 0.1, true, "<= 0.3"));
    var decision =
        decide(
            Optional.empty(),
            Optional.empty(),
            List.of(dark),
            List.of(ok(10)),
            Optional.of(Duration.ZERO));
    assertThat(decision.verdict()).isEqualTo(Verdict.DEVIATED);
    assertThat(decision.reason())
        .isEqualTo(
            "errors had no data at +5.0s and missing data is failure; recovered 0.0s after the rollback");
  }

  @Test
  void noDataWhereMissingIsInconclusiveIsInconclusive() {
    Measurement dark =
        at(
            5,
            Reading.of("errors", 0.001, true, "<= 0.01"),
            Reading.noData("latency", "<= 0.3", "empty result"));
    var decision =
        decide(
            Optional.empty(),
            Optional.empty(),
            List.of(dark, ok(10)),
            List.of(ok(15)),
            Optional.of(Duration.ZERO));
    assertThat(decision)
        .isEqualTo(
            new VerdictRules.Decision(
                Verdict.INCONCLUSIVE,
                "1 of 2 measurements while the faults were on had no data or errors; nothing broke, but nothing was proven either;"
                    + " recovered 0.0s after the rollback"));
  }

  @Test
  void notRecoveringInTimeIsDeviationWhenTheLastMeasurementBreaches() {
    Measurement stillBad =
        at(
            70,
            Reading.of("errors", 0.05, false, "<= 0.01"),
            Reading.of("latency", 0.1, true, "<= 0.3"));
    var decision =
        decide(
            Optional.empty(),
            Optional.empty(),
            List.of(ok(5)),
            List.of(stillBad),
            Optional.empty());
    assertThat(decision)
        .isEqualTo(
            new VerdictRules.Decision(
                Verdict.DEVIATED,
                "the system did not return to steady state within 1m of the rollback: errors 0.05 outside <= 0.01, latency 0.1 <= 0.3"));
  }

  @Test
  void notRecoveringForLackOfDataIsInconclusive() {
    Measurement dark =
        at(
            70,
            Reading.error("errors", "<= 0.01", "cannot reach Prometheus"),
            Reading.of("latency", 0.1, true, "<= 0.3"));
    var decision =
        decide(Optional.empty(), Optional.empty(), List.of(ok(5)), List.of(dark), Optional.empty());
    assertThat(decision)
        .isEqualTo(
            new VerdictRules.Decision(
                Verdict.INCONCLUSIVE,
                "no measurement after the rollback was fully within steady state (last: errors error: cannot reach Prometheus, latency 0.1 <= 0.3)"));
  }

  @Test
  void heldNeedsEveryMeasurementWithinAndARecovery() {
    var decision =
        decide(
            Optional.empty(),
            Optional.empty(),
            List.of(ok(5), ok(10)),
            List.of(ok(11)),
            Optional.of(Duration.ofSeconds(1)));
    assertThat(decision)
        .isEqualTo(
            new VerdictRules.Decision(
                Verdict.HELD,
                "2 measurements while the faults were on within steady state; recovered 1.0s after the rollback"));
  }

  @Test
  void targetsThatDidNotRecoverTurnAHeldDrillIntoDeviation() {
    var decision =
        rules.decide(
            new VerdictRules.Evidence(
                START,
                Optional.empty(),
                Optional.empty(),
                List.of(ok(5)),
                List.of(ok(11)),
                Optional.of(Duration.ofSeconds(1)),
                RECOVERY,
                List.of("pod-delete: 2 of 3 pods Ready again")));
    assertThat(decision)
        .isEqualTo(
            new VerdictRules.Decision(
                Verdict.DEVIATED,
                "the fault's targets did not recover: pod-delete: 2 of 3 pods Ready again; 1"
                    + " measurement while the faults were on within steady state; recovered 1.0s"
                    + " after the rollback"));
  }

  @Test
  void targetsThatDidNotRecoverAreNamedBesideAWorseVerdict() {
    var decision =
        rules.decide(
            new VerdictRules.Evidence(
                START,
                Optional.empty(),
                Optional.of("error budget burning too fast"),
                List.of(ok(5)),
                List.of(),
                Optional.empty(),
                RECOVERY,
                List.of("pod-delete: 2 of 3 pods Ready again")));
    assertThat(decision.verdict()).isEqualTo(Verdict.ABORTED);
    assertThat(decision.reason())
        .startsWith("error budget burning too fast; ")
        .endsWith("; the fault's targets did not recover: pod-delete: 2 of 3 pods Ready again");
  }

  @Test
  void noMeasurementWhileTheFaultsWereOnIsInconclusiveEvenAfterARecovery() {
    var decision =
        decide(
            Optional.empty(),
            Optional.empty(),
            List.of(),
            List.of(ok(1)),
            Optional.of(Duration.ZERO));
    assertThat(decision)
        .isEqualTo(
            new VerdictRules.Decision(
                Verdict.INCONCLUSIVE,
                "no measurement was taken while the faults were on; recovered 0.0s after the rollback"));
  }

  @Test
  void noMeasurementAfterTheRollbackIsInconclusiveWithoutALastOne() {
    var decision =
        decide(Optional.empty(), Optional.empty(), List.of(ok(5)), List.of(), Optional.empty());
    assertThat(decision)
        .isEqualTo(
            new VerdictRules.Decision(
                Verdict.INCONCLUSIVE,
                "no measurement after the rollback was fully within steady state"));
  }

  @Test
  void onlyTheLastMeasurementAfterTheRollbackDecidesBetweenDeviatedAndInconclusive() {
    Measurement breach =
        at(
            62,
            Reading.of("errors", 0.05, false, "<= 0.01"),
            Reading.of("latency", 0.1, true, "<= 0.3"));
    Measurement dark =
        at(
            67,
            Reading.error("errors", "<= 0.01", "timeout"),
            Reading.of("latency", 0.1, true, "<= 0.3"));
    assertThat(
            decide(
                    Optional.empty(),
                    Optional.empty(),
                    List.of(ok(5)),
                    List.of(breach, dark),
                    Optional.empty())
                .verdict())
        .isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(
            decide(
                    Optional.empty(),
                    Optional.empty(),
                    List.of(ok(5)),
                    List.of(dark, breach),
                    Optional.empty())
                .verdict())
        .isEqualTo(Verdict.DEVIATED);
  }

  @Test
  void theFirstBreachIsTheOneNamed() {
    Measurement first =
        at(
            10,
            Reading.of("errors", 0.02, false, "<= 0.01"),
            Reading.of("latency", 0.1, true, "<= 0.3"));
    Measurement second =
        at(
            15,
            Reading.of("errors", 0.5, false, "<= 0.01"),
            Reading.of("latency", 0.1, true, "<= 0.3"));
    var decision =
        decide(
            Optional.empty(),
            Optional.empty(),
            List.of(ok(5), first, second),
            List.of(ok(20)),
            Optional.of(Duration.ZERO));
    assertThat(decision.reason())
        .startsWith(
            "hypothesis broken while the faults were on, first at +10.0s: errors 0.02 outside");
  }

  @Test
  void noDataOnAnSliTheSteadyStateDoesNotNameIsFailure() {
    Measurement dark =
        new Measurement(
            START.plusSeconds(5),
            List.of(
                Reading.of("errors", 0.001, true, "<= 0.01"),
                Reading.noData("saturation", "<= 0.8", "empty result")),
            Optional.empty());
    var decision =
        decide(
            Optional.empty(),
            Optional.empty(),
            List.of(dark),
            List.of(ok(10)),
            Optional.of(Duration.ZERO));
    assertThat(decision.verdict()).isEqualTo(Verdict.DEVIATED);
    assertThat(decision.reason()).startsWith("saturation had no data at +5.0s");
  }

  @Test
  void aBlindGuardIsNotAnSliThatWentDark() {
    // The burn-rate guard without data is the abort guards' business, not the verdict's.
    Measurement guardDark =
        new Measurement(
            START.plusSeconds(5),
            List.of(
                Reading.of("errors", 0.001, true, "<= 0.01"),
                Reading.of("latency", 0.1, true, "<= 0.3")),
            Optional.of(Reading.noData("burn_rate", "<= 14.4", "empty result")));
    var decision =
        decide(
            Optional.empty(),
            Optional.empty(),
            List.of(guardDark),
            List.of(ok(10)),
            Optional.of(Duration.ZERO));
    assertThat(decision.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(decision.reason())
        .startsWith("1 of 1 measurements while the faults were on had no data");
  }

  @Test
  void targetsThatDidNotRecoverTurnAnInconclusiveDrillIntoDeviation() {
    var decision =
        rules.decide(
            new VerdictRules.Evidence(
                START,
                Optional.empty(),
                Optional.empty(),
                List.of(ok(5)),
                List.of(),
                Optional.empty(),
                RECOVERY,
                List.of("pod-delete: 0 of 1 pods Ready again", "pod-delete: rollout stuck")));
    assertThat(decision)
        .isEqualTo(
            new VerdictRules.Decision(
                Verdict.DEVIATED,
                "the fault's targets did not recover: pod-delete: 0 of 1 pods Ready again; pod-delete:"
                    + " rollout stuck; no measurement after the rollback was fully within steady state"));
  }
}
