package dev.firedrill.engine;

import static dev.firedrill.testing.ScriptedPrometheus.failure;
import static dev.firedrill.testing.ScriptedPrometheus.noData;
import static dev.firedrill.testing.ScriptedPrometheus.value;
import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.experiment.Abort;
import dev.firedrill.experiment.AbortRule;
import dev.firedrill.experiment.BurnRateGuard;
import dev.firedrill.experiment.Missing;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.testing.ScriptedFault;
import dev.firedrill.testing.ScriptedPrometheus;
import dev.firedrill.time.VirtualClock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Whole drills of the engine on a virtual clock: each verdict, the rollback's retries, stop and
 * interrupt.
 */
class DrillTest {

  private static final String UNREACHABLE = "Prometheus at http://127.0.0.1:9 is unreachable";

  private final VirtualClock clock = new VirtualClock(ScriptedDrill.START);
  private final ScriptedDrill drill = new ScriptedDrill(clock);

  @Test
  void heldWhenTheSteadyStateHoldsThroughTheMethod() {
    ScriptedFault fault = drill.fault("burn");
    DrillResult result = drill.run();

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    assertThat(result.reason())
        .isEqualTo(
            "12 measurements while the faults were on within steady state; recovered 0.0s after the rollback");
    assertThat(result.rollbackOk()).isTrue();
    assertThat(fault.applied()).isFalse();
    assertThat(drill.log())
        .containsSubsequence(
            "measure at 0.0",
            "inject burn",
            "measure at 5.0",
            "measure at 60.0",
            "revert burn",
            "measure at 60.0");
    assertThat(drill.lines())
        .contains(
            "+0.0s before ok: error_ratio 0.001 <= 0.01, burn_rate 1 <= 100",
            "+5.0s during ok: error_ratio 0.001 <= 0.01, burn_rate 1 <= 100",
            "+60.0s rollback cpu-burn: burn gone (attempt 1)",
            "+60.0s verdict held: 12 measurements while the faults were on within steady state; recovered 0.0s after the rollback");
  }

  @Test
  void aTenMinuteDrillRunsOnTheVirtualClock() {
    drill.fault("burn");
    DrillResult result =
        drill.run(drill.experiment().method(drill.method(Duration.ofMinutes(10))).build());

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    assertThat(result.journal().json().get("measurements")).hasSize(1 + 120 + 1);
    assertThat(drill.seconds()).isEqualTo(600.0);
  }

  @Test
  void deviatedWhenTheSliLeavesItsRangeBelowTheAbortThreshold() {
    drill.fault("burn");
    drill
        .prometheus()
        .answer(ScriptedDrill.ERROR_RATIO, t -> value(t >= 20 && t < 40 ? 0.02 : 0.001));

    DrillResult result = drill.run();

    assertThat(result.verdict()).isEqualTo(Verdict.DEVIATED);
    assertThat(result.reason())
        .startsWith(
            "hypothesis broken while the faults were on, first at +20.0s: error_ratio 0.02 outside <= 0.01");
    assertThat(result.reason()).endsWith("recovered 0.0s after the rollback");
  }

  @Test
  void abortRuleNeedsConsecutiveBreachesThenRollsBack() {
    ScriptedFault fault = drill.fault("burn");
    drill
        .prometheus()
        .answer(ScriptedDrill.ERROR_RATIO, t -> value(t == 10.0 || t >= 20 ? 0.08 : 0.001));

    DrillResult result = drill.run();

    assertThat(result.verdict()).isEqualTo(Verdict.ABORTED);
    assertThat(result.reason()).startsWith("error_ratio 0.08 > 0.05 in 2 measurements in a row;");
    assertThat(result.journal().json().get("aborted_at").asText())
        .isEqualTo("2026-11-29T10:00:25Z");
    assertThat(result.journal().json().get("abort_reason").asText())
        .isEqualTo("error_ratio 0.08 > 0.05 in 2 measurements in a row");
    assertThat(fault.applied()).isFalse();
    assertThat(drill.log().indexOf("revert burn"))
        .isGreaterThan(drill.log().indexOf("measure at 25.0"));
  }

  @Test
  void burnRateAboveItsMaximumAbortsAtOnce() {
    drill.fault("burn");
    drill.prometheus().answer(ScriptedDrill.GUARD_ERROR_RATIO, t -> value(t >= 15 ? 0.2 : 0.001));

    DrillResult result = drill.run();

    assertThat(result.verdict()).isEqualTo(Verdict.ABORTED);
    assertThat(result.reason()).startsWith("burn rate 200 above 100 (");
    assertThat(result.journal().json().get("aborted_at").asText())
        .isEqualTo("2026-11-29T10:00:15Z");
  }

  @Test
  void missingGuardDataIsFailure() {
    drill.fault("burn");
    drill
        .prometheus()
        .answer(ScriptedDrill.GUARD_ERROR_RATIO, t -> t >= 10 ? noData() : value(0.001));

    DrillResult result = drill.run();

    assertThat(result.verdict()).isEqualTo(Verdict.ABORTED);
    assertThat(result.reason())
        .startsWith(
            "burn-rate guard has no data (empty result for "
                + ScriptedDrill.GUARD_ERROR_RATIO
                + "); missing data is failure");
  }

  @Test
  void missingDataMayBeDeclaredInconclusive() {
    drill.fault("burn");
    drill
        .prometheus()
        .answer(ScriptedDrill.ERROR_RATIO, t -> t >= 10 && t <= 20 ? noData() : value(0.001));

    DrillResult result =
        drill.run(
            drill
                .experiment()
                .steadyState(ScriptedDrill.steadyState(Duration.ofSeconds(5), Missing.INCONCLUSIVE))
                .build());

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.reason())
        .startsWith("3 of 12 measurements while the faults were on had no data or errors");
  }

  @Test
  void probeErrorsInARowAbort() {
    drill.fault("burn");
    drill
        .prometheus()
        .answer(ScriptedDrill.ERROR_RATIO, t -> t >= 10 ? failure(UNREACHABLE) : value(0.001))
        .answer(
            ScriptedDrill.GUARD_ERROR_RATIO, t -> t >= 10 ? failure(UNREACHABLE) : value(0.001));

    DrillResult result = drill.run();

    assertThat(result.verdict()).isEqualTo(Verdict.ABORTED);
    assertThat(result.reason())
        .startsWith(
            "3 probe errors in a row; the drill cannot see the system: Prometheus at http://127.0.0.1:9 is unreachable");
    assertThat(result.journal().json().get("aborted_at").asText())
        .isEqualTo("2026-11-29T10:00:20Z");
    assertThat(drill.faults().get(0).applied()).isFalse();
  }

  @Test
  void notRunWhenAlreadyOutsideSteadyState() {
    ScriptedFault fault = drill.fault("burn");
    drill
        .prometheus()
        .answer(ScriptedDrill.ERROR_RATIO, 0.03)
        .answer(ScriptedDrill.GUARD_ERROR_RATIO, 0.03);

    DrillResult result = drill.run();

    assertThat(result.verdict()).isEqualTo(Verdict.NOT_RUN);
    assertThat(result.reason())
        .isEqualTo(
            "outside steady state before injection, nothing was injected: error_ratio 0.03 outside <= 0.01, burn_rate 30 <= 100");
    assertThat(drill.log()).doesNotContain("inject burn");
    assertThat(fault.applied()).isFalse();
  }

  @Test
  void aQueryThatFailsBeforeInjectionIsInconclusiveNotAnUnhealthySystem() {
    ScriptedFault fault = drill.fault("burn");
    // the queries fail: a wrong URL, a refused query, several series
    drill
        .prometheus()
        .answer(ScriptedDrill.ERROR_RATIO, t -> failure(UNREACHABLE))
        .answer(ScriptedDrill.GUARD_ERROR_RATIO, t -> failure(UNREACHABLE));

    DrillResult result = drill.run();

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.reason())
        .isEqualTo(
            "the steady state could not be measured (a problem of the drill's queries"
                + " or of its Prometheus, not of the system), nothing was injected: error_ratio error: Prometheus at"
                + " http://127.0.0.1:9 is unreachable, burn_rate error: Prometheus at http://127.0.0.1:9 is unreachable");
    assertThat(drill.log()).doesNotContain("inject burn");
    assertThat(fault.applied()).isFalse();
  }

  @Test
  void anSliWithNoDataBeforeInjectionIsInconclusiveNotAnUnhealthySystem() {
    ScriptedFault fault = drill.fault("burn");
    drill.prometheus().answer(ScriptedDrill.ERROR_RATIO, t -> ScriptedPrometheus.noData());

    DrillResult result = drill.run();

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.reason())
        .isEqualTo(
            "the steady state could not be measured (a problem of the drill's queries"
                + " or of its Prometheus, not of the system), nothing was injected: error_ratio no"
                + " data (empty result for errors / requests); check its metric and label names"
                + " against Prometheus");
    assertThat(fault.applied()).isFalse();
  }

  @Test
  void aBreachBeforeInjectionIsNotRunEvenWhenAnotherSliHasNoData() {
    drill.fault("burn");
    drill
        .prometheus()
        .answer(ScriptedDrill.ERROR_RATIO, 0.03)
        .answer(ScriptedDrill.GUARD_ERROR_RATIO, t -> ScriptedPrometheus.noData());

    assertThat(drill.run().verdict()).isEqualTo(Verdict.NOT_RUN);
  }

  @Test
  void refusedWhenTheDurationIsAboveTheBlastRadius() {
    drill.fault("burn");

    DrillResult result =
        drill.run(drill.experiment().method(drill.method(Duration.ofMinutes(20))).build());

    assertThat(result.verdict()).isEqualTo(Verdict.REFUSED);
    assertThat(result.reason())
        .isEqualTo("method.duration 20m is above blast_radius.max_duration 15m");
    assertThat(drill.log()).isEmpty();
  }

  @Test
  void aHalfStartedFaultIsRolledBackWithTheOthersInReverseOrder() {
    drill.fault("first");
    ScriptedFault second = drill.fault("second");
    drill.fault("third");
    second.failsToInject();

    DrillResult result = drill.run();

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.reason())
        .startsWith("a fault could not be injected: second could not start;");
    assertThat(drill.log())
        .containsSubsequence("inject first", "inject second", "revert second", "revert first");
    assertThat(drill.log()).doesNotContain("inject third", "revert third");
    assertThat(drill.faults()).noneMatch(ScriptedFault::applied);
  }

  @Test
  void aFailedRevertIsRetriedAndNeverSkipsTheOthers() {
    drill.fault("first");
    ScriptedFault stuck = drill.fault("stuck");
    stuck.failsToRevert(5);

    DrillResult result = drill.run();

    assertThat(result.rollbackOk()).isFalse();
    assertThat(result.manualCommands()).containsExactly("undo stuck");
    assertThat(drill.log())
        .containsSubsequence("revert stuck", "revert stuck", "revert stuck", "revert first");
    assertThat(drill.faults().get(0).applied()).isFalse();
    assertThat(drill.lines())
        .anyMatch(
            l ->
                l.endsWith(
                    "rollback cpu-burn: FAILED after 3 attempts: stuck refused to go; run by hand: undo stuck"));
    assertThat(result.journal().faultNode(1).get("revert").get("manual_command").asText())
        .isEqualTo("undo stuck");
  }

  @Test
  void aRevertThatSucceedsOnRetryIsClean() {
    ScriptedFault flaky = drill.fault("flaky");
    flaky.failsToRevert(2);

    DrillResult result = drill.run();

    assertThat(result.rollbackOk()).isTrue();
    assertThat(result.journal().faultNode(0).get("revert").get("attempts").asInt()).isEqualTo(3);
  }

  @Test
  void aRetriedRevertWaitsHalfASecondThenASecondBeforeItsAttempts() {
    drill.fault("flaky").failsToRevert(2);

    drill.run();

    assertThat(drill.lines()).contains("+61.5s rollback cpu-burn: flaky gone (attempt 3)");
    assertThat(Thread.interrupted()).as("the backoff's waits leave no interrupt behind").isFalse();
  }

  @Test
  void anInterruptDuringTheRollbacksBackoffIsHeldUntilEveryAttemptRan() {
    drill.fault("flaky").failsToRevert(2);
    AtomicBoolean raised = new AtomicBoolean();
    clock.onAdvance(
        now -> {
          // Right after the first backoff: the second one is cut short, the third attempt is not.
          if (drill.seconds() >= 60.5 && raised.compareAndSet(false, true)) {
            Thread.currentThread().interrupt();
          }
        });

    DrillResult result = drill.run();

    assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
    assertThat(drill.lines()).contains("+60.5s rollback cpu-burn: flaky gone (attempt 3)");
    assertThat(result.rollbackOk()).isTrue();
    // The verdict is left alone: whether the recovery's measurement sees the kept interrupt
    // depends on whether its queries' threads answered before the drill asked.
  }

  @Test
  void aSignalStopsTheMethodWithinOnePollAndTheRollbackRuns() {
    ScriptedFault fault = drill.fault("burn");
    clock.onAdvance(
        now -> {
          if (drill.seconds() >= 12.3) {
            drill.requestStop("SIGINT received");
          }
        });

    DrillResult result = drill.run();

    assertThat(result.verdict()).isEqualTo(Verdict.ABORTED);
    assertThat(result.reason()).startsWith("SIGINT received;");
    assertThat(result.journal().json().get("aborted_at").asText())
        .isEqualTo("2026-11-29T10:00:12.400Z");
    assertThat(fault.applied()).isFalse();
  }

  @Test
  void aSignalDuringPreflightStopsTheDrillBeforeAnythingIsInjected() {
    ScriptedFault fault = drill.fault("burn");
    drill
        .prometheus()
        .answer(
            ScriptedDrill.ERROR_RATIO,
            t -> {
              // Ctrl-C while preflight's query is on its way.
              drill.requestStop("SIGINT received");
              return value(0.001);
            });

    DrillResult result = drill.run();

    assertThat(result.verdict()).isEqualTo(Verdict.NOT_RUN);
    assertThat(result.reason())
        .isEqualTo("stopped before injection (SIGINT received); nothing was injected");
    assertThat(drill.log()).noneMatch(entry -> entry.startsWith("inject"));
    assertThat(fault.applied()).isFalse();
    assertThat(result.journal().json().has("injected_at")).isFalse();
  }

  @Test
  void anInterruptBeforeInjectionIsNotRunWithNothingInjectedAndKeepsTheFlag() {
    ScriptedFault fault = drill.fault("burn");
    // The preflight's query interrupts the drill's thread (this one) and answers only once the
    // drill gave it up: the drill cannot find its answer ready and miss the interrupt.
    Thread drilling = Thread.currentThread();
    drill
        .prometheus()
        .answer(
            ScriptedDrill.ERROR_RATIO,
            t -> {
              drilling.interrupt();
              try {
                new java.util.concurrent.CountDownLatch(1).await();
              } catch (InterruptedException cancelled) {
                Thread.currentThread().interrupt();
              }
              return value(0.001);
            });

    DrillResult result = drill.run();

    assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
    assertThat(result.verdict()).isEqualTo(Verdict.NOT_RUN);
    assertThat(result.reason()).isEqualTo("interrupted before injection; nothing was injected");
    assertThat(fault.applied()).isFalse();
    assertThat(drill.log()).noneMatch(entry -> entry.startsWith("inject"));
  }

  @Test
  void anInternalErrorBeforeInjectionIsInconclusiveWithNothingInjected() {
    ScriptedFault fault = drill.fault("burn");
    drill
        .prometheus()
        .answer(
            ScriptedDrill.ERROR_RATIO,
            t -> {
              throw new IllegalStateException("bug in the measurer");
            });

    DrillResult result = drill.run();

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.reason())
        .isEqualTo(
            "internal error before injection (java.lang.IllegalStateException: bug in the"
                + " measurer); nothing was injected");
    assertThat(fault.applied()).isFalse();
    assertThat(drill.log()).noneMatch(entry -> entry.startsWith("inject"));
  }

  @Test
  void anInternalErrorAfterTheRollbackStillEndsWithAVerdict() {
    ScriptedFault fault = drill.fault("burn");
    java.util.concurrent.atomic.AtomicInteger queries =
        new java.util.concurrent.atomic.AtomicInteger();
    drill
        .prometheus()
        .answer(
            ScriptedDrill.ERROR_RATIO,
            t -> {
              // Preflight and the method's 12 measurements answer; the recovery's first does not.
              if (queries.incrementAndGet() > 13) {
                throw new IllegalStateException("bug in the measurer");
              }
              return value(0.001);
            });

    DrillResult result = drill.run();

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.reason())
        .isEqualTo(
            "internal error while measuring the recovery (java.lang.IllegalStateException: bug in"
                + " the measurer); the faults were rolled back");
    assertThat(result.rollbackOk()).isTrue();
    assertThat(fault.applied()).isFalse();
    assertThat(drill.log()).contains("revert burn");
  }

  @Test
  void notBackWithinTheRecoveryTimeIsDeviation() {
    drill.fault("burn");
    drill.prometheus().answer(ScriptedDrill.ERROR_RATIO, t -> value(t >= 30 ? 0.02 : 0.001));

    DrillResult result = drill.run();

    assertThat(result.verdict()).isEqualTo(Verdict.DEVIATED);
    assertThat(result.reason()).contains("not back in steady state within 30s of the rollback");
  }

  @Test
  void anInterruptedDrillStillRollsBackAndKeepsTheFlag() {
    ScriptedFault fault = drill.fault("burn");
    // Once: an interrupt raised again on every later tick would set the flag the test checks
    // whether or not the drill kept it.
    AtomicBoolean raised = new AtomicBoolean();
    clock.onAdvance(
        now -> {
          if (drill.seconds() >= 7 && raised.compareAndSet(false, true)) {
            Thread.currentThread().interrupt();
          }
        });

    DrillResult result = drill.run();

    assertThat(Thread.interrupted()).isTrue();
    assertThat(result.verdict()).isEqualTo(Verdict.ABORTED);
    assertThat(result.reason()).startsWith("interrupted;");
    assertThat(fault.applied()).isFalse();
  }

  /**
   * One measurement of the method is slow; the schedule stays {@code begin + k * 5s}. 12 s at 10 s
   * ends at 22 s: the slots at 15 and 20 are gone, 25 is kept. 5 s at 50 s ends at 55 s, the next
   * slot, which is due then and not missed (a measurement as long as the interval is not slow); the
   * one at 55 s, at the last one's 5 s pace, ends exactly with the method, so it is taken too. 8 s
   * at 50 s misses the slot at 55 s; at 60 s another 8 s would end at 68 s, after the method, so
   * the rollback comes at 60 s without it.
   */
  @ParameterizedTest(name = "{1}s at {0}s")
  @CsvSource(
      delimiter = ';',
      value = {
        "10; 12; 0 5 10 25 30 35 40 45 50 55 60; 10",
        "50; 5; 0 5 10 15 20 25 30 35 40 45 50 55 60; 12",
        "50; 8; 0 5 10 15 20 25 30 35 40 45 50; 10"
      })
  void aSlowMeasurementSkipsTheSlotsItMissedAndTheScheduleKeepsItsPace(
      double at, long seconds, String beforeRollback, int during) {
    drill.fault("burn");
    drill.prometheus().answer(ScriptedDrill.ERROR_RATIO, t -> slowAt(t, at, seconds));

    DrillResult result = drill.run();

    List<String> log = drill.log();
    assertThat(log.subList(0, log.indexOf("revert burn")))
        .filteredOn(entry -> entry.startsWith("measure at "))
        .extracting(entry -> entry.substring("measure at ".length()))
        .as("preflight's measurement and the method's, before the rollback")
        .containsExactlyElementsOf(
            java.util.Arrays.stream(beforeRollback.split(" ")).map(t -> t + ".0").toList());
    assertThat(log).endsWith("revert burn", "measure at 60.0");
    boolean slow = seconds > 5;
    assertThat(result.reason())
        .isEqualTo(
            during
                + " measurements while the faults were on within steady state; recovered 0.0s"
                + " after the rollback"
                + (slow
                    ? "; Prometheus was slow: 1 of "
                        + (during + 1)
                        + " measurements took longer than the 5s interval (the slowest "
                        + seconds
                        + ".0s), so fewer were taken than planned"
                    : ""));
    assertThat(drill.milestones(Milestone.SlowMeasurement.class))
        .hasSize(slow ? 1 : 0)
        .allSatisfy(
            slowOne -> {
              assertThat(slowOne.phase()).isEqualTo(Phase.DURING);
              assertThat(slowOne.took()).isEqualTo(Duration.ofSeconds(seconds));
            });
  }

  @Test
  void aFaultThatRefusesItsPlanRefusesTheDrillBeforeAnythingIsMeasured() {
    drill.fault("burn").refusesToPlan("no cpu to burn on this host");

    DrillResult result = drill.run();

    assertThat(result.verdict()).isEqualTo(Verdict.REFUSED);
    assertThat(result.reason())
        .isEqualTo("method.faults[0] (cpu-burn): no cpu to burn on this host");
    assertThat(drill.log()).isEmpty();
    assertThat(result.journal().json().path("plan").path("refusals").get(0).asText())
        .isEqualTo(result.reason());
    assertThat(result.journal().faultNode(0).path("plan")).isEmpty();
    assertThat(result.journal().verdict()).isEqualTo("refused");
    assertThat(result.journal().json().get("reason").asText()).isEqualTo(result.reason());
    assertThat(result.journal().json().get("rollback_ok").asBoolean()).isTrue();
    assertThat(result.journal().json().get("finished_at").asText())
        .isEqualTo("2026-11-29T10:00:00Z");
  }

  @Test
  void aFaultWhoseTargetsDidNotComeBackTurnsAHeldDrillIntoDeviation() {
    drill.fault("delete").leavesItsTargetsDown("payments-0 not Ready 30s after its delete");

    DrillResult result = drill.run();

    assertThat(result.verdict()).isEqualTo(Verdict.DEVIATED);
    assertThat(result.reason())
        .isEqualTo(
            "the fault's targets did not recover: cpu-burn: payments-0 not Ready 30s after its"
                + " delete; 12 measurements while the faults were on within steady state;"
                + " recovered 0.0s after the rollback");
    assertThat(result.rollbackOk()).isTrue();
  }

  private static final String BUDGET =
      "error budget: 99.9% over 30d allows 43.20 min of total outage; worst case 5% of traffic"
          + " for 1m spends 0.05 min, 0.1157% of the budget (ceiling 5%)";

  /** {@link ScriptedDrill#experiment()} whose burn-rate guard reads the remaining budget. */
  private DrillResult runWithRemainingBudget(ScriptedPrometheus.Answer remaining) {
    drill.fault("burn");
    drill.prometheus().answer("budget_remaining", t -> remaining);
    return drill.run(
        drill
            .experiment()
            .abort(
                new Abort(
                    List.of(new AbortRule("error_ratio", AbortRule.Direction.ABOVE, 0.05, 2)),
                    Optional.of(
                        new BurnRateGuard(
                            0.999,
                            Duration.ofDays(30),
                            ScriptedDrill.GUARD_ERROR_RATIO,
                            100,
                            Missing.FAIL,
                            Optional.of("budget_remaining"))),
                    Abort.DEFAULT_PROBE_ERRORS,
                    Optional.empty()))
            .build());
  }

  @Test
  void aRemainingBudgetThatCoversTheWorstCaseIsJournaledAndTheDrillRuns() {
    DrillResult result = runWithRemainingBudget(value(0.5));

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    assertThat(result.journal().json().get("budget_preflight").asText())
        .isEqualTo(BUDGET + "; remaining 50% = 21.60 min");
    assertThat(drill.lines())
        .containsSubsequence(
            "+0.0s plan " + BUDGET, "+0.0s before " + BUDGET + "; remaining 50% = 21.60 min");
    assertThat(drill.log()).contains("inject burn");
  }

  @Test
  void allOfTheBudgetLeftIsAShareItMayHave() {
    assertThat(runWithRemainingBudget(value(1)).verdict()).isEqualTo(Verdict.HELD);
    assertThat(drill.milestones(Milestone.BudgetChecked.class)).hasSize(1);
  }

  /** A share of the budget short of the worst case (0.05 min), none left included. */
  @ParameterizedTest(name = "{0} left")
  @CsvSource({"0.001, '0.04 min (0.1% of 43.20 min)'", "0, '0.00 min (0% of 43.20 min)'"})
  void aRemainingBudgetShortOfTheWorstCaseRefusesTheDrillBeforeInjection(
      double share, String remaining) {
    DrillResult result = runWithRemainingBudget(value(share));

    assertThat(result.verdict()).isEqualTo(Verdict.REFUSED);
    assertThat(result.reason())
        .isEqualTo(
            "the remaining budget, " + remaining + ", does not cover the worst case of 0.05 min");
    assertThat(drill.log()).containsExactly("measure at 0.0");
  }

  /**
   * No data, or a value that is no share of a budget: 1.5 is most likely a query in percent, which
   * would let a drill run on a nearly spent budget (0.5 read as 50%).
   */
  @ParameterizedTest(name = "{1}")
  @CsvSource({
    "NaN, remaining_budget no data (empty result for budget_remaining)",
    "1.5, remaining_budget 1.5 outside 0..1"
  })
  void aRemainingBudgetItCannotTrustIsInconclusiveWithNothingInjected(
      double share, String reading) {
    DrillResult result = runWithRemainingBudget(Double.isNaN(share) ? noData() : value(share));

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.reason())
        .isEqualTo(
            "the remaining error budget could not be measured, nothing was injected: " + reading);
    assertThat(drill.log()).containsExactly("measure at 0.0");
    assertThat(drill.milestones(Milestone.BudgetChecked.class)).isEmpty();
  }

  @Test
  void aSlotOneNanosecondAwayIsWaitedForAndNotSkipped() {
    drill.fault("burn");
    drill
        .prometheus()
        .answer(
            ScriptedDrill.ERROR_RATIO,
            t -> {
              if (t == 10.0) {
                // Ends 1 ns before the slot at 20 s: the slots at 15 s is missed, 20 s is not.
                clock.advance(Duration.ofSeconds(10).minusNanos(1));
              }
              return value(0.001);
            });

    drill.run();

    assertThat(measurements())
        .containsExactly(
            0.0, 5.0, 10.0, 20.0, 25.0, 30.0, 35.0, 40.0, 45.0, 50.0, 55.0, 60.0, 60.0);
  }

  @Test
  void theRecoveryMeasuresEveryIntervalUntilItsTimeIsUpAndTheLastWaitIsShorter() {
    drill.fault("burn");
    drill.prometheus().answer(ScriptedDrill.ERROR_RATIO, t -> value(t >= 30 ? 0.02 : 0.001));

    DrillResult result =
        drill.run(
            drill
                .experiment()
                .hypothesis(
                    new dev.firedrill.experiment.Hypothesis(
                        "errors stay under 1%", Duration.ofSeconds(12)))
                .build());

    // 12 s to recover at a 5 s interval: 60, 65, 70 and, 2 s later, 72.
    assertThat(measurements()).endsWith(55.0, 60.0, 60.0, 65.0, 70.0, 72.0);
    assertThat(result.verdict()).isEqualTo(Verdict.DEVIATED);
    assertThat(result.journal().json().has("recovered_at")).isFalse();
  }

  @Test
  void aSlowMeasurementDuringTheRecoveryIsCountedToo() {
    drill.fault("burn");
    java.util.concurrent.atomic.AtomicInteger queries =
        new java.util.concurrent.atomic.AtomicInteger();
    drill
        .prometheus()
        .answer(
            ScriptedDrill.ERROR_RATIO,
            t -> {
              // Preflight and the method's 12 answer at once; the recovery's first takes 7 s.
              if (queries.incrementAndGet() == 14) {
                clock.advance(Duration.ofSeconds(7));
              }
              return value(0.001);
            });

    DrillResult result = drill.run();

    assertThat(drill.milestones(Milestone.SlowMeasurement.class))
        .singleElement()
        .satisfies(slow -> assertThat(slow.phase()).isEqualTo(Phase.AFTER));
    assertThat(result.reason())
        .isEqualTo(
            "12 measurements while the faults were on within steady state; recovered 7.0s after"
                + " the rollback; Prometheus was slow: 1 of 13 measurements took longer than the"
                + " 5s interval (the slowest 7.0s), so fewer were taken than planned");
    assertThat(result.journal().json().get("recovery_seconds").asDouble()).isEqualTo(7.0);
  }

  @Test
  void offsetsCountFromTheDrillsStartNotTheClocks() {
    clock.advance(Duration.ofMinutes(5));
    drill.fault("burn");

    drill.run();

    assertThat(drill.lines())
        .startsWith("+0.0s plan " + BUDGET)
        .contains("+5.0s during ok: error_ratio 0.001 <= 0.01, burn_rate 1 <= 100");
  }

  @Test
  void thePortsBuilderChains() {
    DrillPorts.Builder builder =
        DrillPorts.builder(
            targets -> {
              throw new AssertionError("not measured");
            },
            new FaultProvider() {
              @Override
              public dev.firedrill.fault.Fault create(dev.firedrill.experiment.FaultSpec spec) {
                throw new AssertionError("not created");
              }

              @Override
              public dev.firedrill.fault.Fault restore(
                  dev.firedrill.experiment.FaultSpec spec, java.util.Map<String, Object> state) {
                throw new AssertionError("not restored");
              }
            },
            clock);
    JournalFile file = new JournalFile(java.nio.file.Path.of("unused.json"));

    assertThat(builder.journal(file)).isSameAs(builder);
    assertThat(builder.observer(DrillObserver.noop())).isSameAs(builder);
    assertThat(builder.stop(new StopSignal.Flag())).isSameAs(builder);
    assertThat(builder.build().journalFile()).contains(file);
  }

  /**
   * Each way out of the faults' phase (the method's end, a fault that fails to inject, an
   * interrupt, a bug while measuring) rolls back and journals it alike, and the recovery reads what
   * the started faults selected, resolved once: after a half-done injection too.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = ';',
      value = {
        "the method's end; HELD; ",
        "a fault that fails to inject; FAILED; ",
        "an interrupt; ABORTED; interrupted",
        "a bug while measuring; INCONCLUSIVE; internal error while the faults were on:"
            + " java.lang.IllegalStateException: bug in the measurer"
      })
  void everyWayOutOfTheFaultsRollsBackOnTheTargetsTheyRead(
      String way, Verdict verdict, String abortReason) {
    String selected = "errors{pod=~\"payments-0\"}";
    drill.fault("first").selects("payments-0");
    ScriptedFault second = drill.fault("second");
    drill.prometheus().answer("errors{pod=~\".*\"}", 0.001).answer(selected, 0.001);
    AtomicBoolean raised = new AtomicBoolean();
    switch (way) {
      case "a fault that fails to inject" -> second.failsToInject();
      case "an interrupt" ->
          clock.onAdvance(
              now -> {
                if (drill.seconds() >= 7 && raised.compareAndSet(false, true)) {
                  Thread.currentThread().interrupt();
                }
              });
      case "a bug while measuring" ->
          drill
              .prometheus()
              .answer(
                  selected,
                  t -> {
                    if (t == 10.0) {
                      throw new IllegalStateException("bug in the measurer");
                    }
                    return value(0.001);
                  });
      default -> {}
    }

    DrillResult result =
        drill.run(
            drill
                .experiment()
                .steadyState(
                    new dev.firedrill.experiment.SteadyState(
                        Duration.ofSeconds(5),
                        List.of(
                            new dev.firedrill.experiment.Sli(
                                "error_ratio",
                                "errors{pod=~\"{{ targets }}\"}",
                                java.util.OptionalDouble.empty(),
                                java.util.OptionalDouble.of(0.01),
                                Missing.FAIL))))
                .build());
    boolean interrupted = Thread.interrupted();

    assertThat(interrupted).isEqualTo(way.equals("an interrupt"));
    assertThat(result.verdict()).isEqualTo(verdict);
    com.fasterxml.jackson.databind.JsonNode journal = result.journal().json();
    com.fasterxml.jackson.databind.JsonNode asRun = journal.get("queries_as_run");
    assertThat(asRun).as("before injection, and once after it").hasSize(2);
    assertThat(asRun.get(1).get("injected").asBoolean()).isTrue();
    assertThat(asRun.get(1).get("targets").get(0).asText()).isEqualTo("payments-0");
    assertThat(asRun.get(1).get("slis").get(0).get("query").asText()).isEqualTo(selected);
    assertThat(journal.has("rollback_at")).isTrue();
    assertThat(journal.has("rollback_done_at")).isTrue();
    assertThat(journal.path("abort_reason").asText(null)).isEqualTo(abortReason);
    assertThat(drill.log()).contains("revert first", "revert second");
    assertThat(drill.milestones().get(drill.milestones().size() - 1))
        .isInstanceOf(Milestone.DrillFinished.class);
  }

  /** 0.001, after {@code seconds} of virtual time when asked at {@code at}. */
  private ScriptedPrometheus.Answer slowAt(double t, double at, long seconds) {
    if (t == at) {
      clock.advance(Duration.ofSeconds(seconds));
    }
    return value(0.001);
  }

  /** When each measurement began, in seconds since the drill's start. */
  private List<Double> measurements() {
    return drill.log().stream()
        .filter(entry -> entry.startsWith("measure at "))
        .map(entry -> Double.valueOf(entry.substring("measure at ".length())))
        .toList();
  }
}
