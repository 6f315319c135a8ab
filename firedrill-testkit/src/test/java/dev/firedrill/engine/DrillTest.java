package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.experiment.Missing;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DrillTest {

  private final ScriptedWorld world = new ScriptedWorld();

  @Test
  void heldWhenTheSteadyStateHoldsThroughTheMethod() {
    FakeFault fault = world.fault("burn");
    DrillResult result = world.run(world.experiment());

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    assertThat(result.reason()).isEqualTo("12 measurements while the faults were on within steady state; recovered 0.0s after the rollback");
    assertThat(result.rollbackOk()).isTrue();
    assertThat(fault.applied).isFalse();
    assertThat(world.log).containsSubsequence("measure at 0.0", "inject burn", "measure at 5.0", "measure at 60.0", "revert burn", "measure at 60.0");
    assertThat(world.lines()).contains(
        "+0.0s before ok: error_ratio 0.001 <= 0.01, burn_rate 1 <= 100",
        "+5.0s during ok: error_ratio 0.001 <= 0.01, burn_rate 1 <= 100",
        "+60.0s rollback cpu-burn: burn gone (attempt 1)",
        "+60.0s verdict held: 12 measurements while the faults were on within steady state; recovered 0.0s after the rollback");
  }

  @Test
  void aTenMinuteDrillRunsOnTheVirtualClock() {
    world.fault("burn");
    DrillResult result = world.run(world.experiment(Duration.ofMinutes(10), Missing.FAIL));

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    assertThat(result.journal().json().get("measurements")).hasSize(1 + 120 + 1);
    assertThat(world.seconds()).isEqualTo(600.0);
  }

  @Test
  void deviatedWhenTheSliLeavesItsRangeBelowTheAbortThreshold() {
    world.fault("burn");
    world.errorRatio = t -> t >= 20 && t < 40 ? 0.02 : 0.001;

    DrillResult result = world.run(world.experiment());

    assertThat(result.verdict()).isEqualTo(Verdict.DEVIATED);
    assertThat(result.reason()).startsWith("hypothesis broken while the faults were on, first at +20.0s: error_ratio 0.02 outside <= 0.01");
    assertThat(result.reason()).endsWith("recovered 0.0s after the rollback");
  }

  @Test
  void abortRuleNeedsConsecutiveBreachesThenRollsBack() {
    FakeFault fault = world.fault("burn");
    world.errorRatio = t -> t == 10.0 || t >= 20 ? 0.08 : 0.001;
    world.burnErrorRatio = t -> 0.001;

    DrillResult result = world.run(world.experiment());

    assertThat(result.verdict()).isEqualTo(Verdict.ABORTED);
    assertThat(result.reason()).startsWith("error_ratio 0.08 > 0.05 in 2 measurements in a row;");
    assertThat(result.journal().json().get("aborted_at").asText()).isEqualTo("2026-11-29T10:00:25Z");
    assertThat(fault.applied).isFalse();
    assertThat(world.log.indexOf("revert burn")).isGreaterThan(world.log.indexOf("measure at 25.0"));
  }

  @Test
  void burnRateAboveItsMaximumAbortsAtOnce() {
    world.fault("burn");
    world.errorRatio = t -> t >= 15 ? 0.2 : 0.001;

    DrillResult result = world.run(world.experiment());

    assertThat(result.verdict()).isEqualTo(Verdict.ABORTED);
    assertThat(result.reason()).startsWith("burn rate 200 above 100 (");
    assertThat(result.journal().json().get("aborted_at").asText()).isEqualTo("2026-11-29T10:00:15Z");
  }

  @Test
  void missingGuardDataIsFailure() {
    world.fault("burn");
    world.burnErrorRatio = t -> t >= 10 ? null : 0.001;

    DrillResult result = world.run(world.experiment());

    assertThat(result.verdict()).isEqualTo(Verdict.ABORTED);
    assertThat(result.reason()).startsWith("burn-rate guard has no data (empty result); missing data is failure");
  }

  @Test
  void missingDataMayBeDeclaredInconclusive() {
    world.fault("burn");
    world.errorRatio = t -> t >= 10 && t <= 20 ? null : 0.001;

    DrillResult result = world.run(world.experiment(Duration.ofSeconds(60), Missing.INCONCLUSIVE));

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.reason()).startsWith("3 of 12 measurements while the faults were on had no data or errors");
  }

  @Test
  void probeErrorsInARowAbort() {
    world.fault("burn");
    world.errorRatio = t -> t >= 10 ? Double.NaN : 0.001;

    DrillResult result = world.run(world.experiment());

    assertThat(result.verdict()).isEqualTo(Verdict.ABORTED);
    assertThat(result.reason()).startsWith("3 probe errors in a row; the drill cannot see the system: Prometheus at http://127.0.0.1:9 is unreachable");
    assertThat(result.journal().json().get("aborted_at").asText()).isEqualTo("2026-11-29T10:00:20Z");
    assertThat(world.faults.get(0).applied).isFalse();
  }

  @Test
  void notRunWhenAlreadyOutsideSteadyState() {
    FakeFault fault = world.fault("burn");
    world.errorRatio = t -> 0.03;

    DrillResult result = world.run(world.experiment());

    assertThat(result.verdict()).isEqualTo(Verdict.NOT_RUN);
    assertThat(result.reason()).isEqualTo("outside steady state before injection, nothing was injected: error_ratio 0.03 outside <= 0.01, burn_rate 30 <= 100");
    assertThat(world.log).doesNotContain("inject burn");
    assertThat(fault.applied).isFalse();
  }

  @Test
  void aQueryThatFailsBeforeInjectionIsInconclusiveNotAnUnhealthySystem() {
    FakeFault fault = world.fault("burn");
    world.errorRatio = t -> Double.NaN; // the query fails: a wrong URL, a refused query, several series

    DrillResult result = world.run(world.experiment());

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.reason()).isEqualTo("the steady state could not be measured (a problem of the drill's queries"
        + " or of its Prometheus, not of the system), nothing was injected: error_ratio error: Prometheus at"
        + " http://127.0.0.1:9 is unreachable, burn_rate error: Prometheus at http://127.0.0.1:9 is unreachable");
    assertThat(world.log).doesNotContain("inject burn");
    assertThat(fault.applied).isFalse();
  }

  @Test
  void refusedWhenTheDurationIsAboveTheBlastRadius() {
    world.fault("burn");

    DrillResult result = world.run(world.experiment(Duration.ofMinutes(20), Missing.FAIL));

    assertThat(result.verdict()).isEqualTo(Verdict.REFUSED);
    assertThat(result.reason()).isEqualTo("method.duration 20m is above blast_radius.max_duration 15m");
    assertThat(world.log).isEmpty();
  }

  @Test
  void aHalfStartedFaultIsRolledBackWithTheOthersInReverseOrder() {
    world.fault("first");
    FakeFault second = world.fault("second");
    world.fault("third");
    second.failInject = true;

    DrillResult result = world.run(world.experiment());

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.reason()).startsWith("a fault could not be injected: second could not start;");
    assertThat(world.log).containsSubsequence("inject first", "inject second", "revert second", "revert first");
    assertThat(world.log).doesNotContain("inject third", "revert third");
    assertThat(world.faults).noneMatch(f -> f.applied);
  }

  @Test
  void aFailedRevertIsRetriedAndNeverSkipsTheOthers() {
    world.fault("first");
    FakeFault stuck = world.fault("stuck");
    stuck.revertFailures = 5;

    DrillResult result = world.run(world.experiment());

    assertThat(result.rollbackOk()).isFalse();
    assertThat(result.manualCommands()).containsExactly("undo stuck");
    assertThat(world.log).containsSubsequence("revert stuck", "revert stuck", "revert stuck", "revert first");
    assertThat(world.faults.get(0).applied).isFalse();
    assertThat(world.lines()).anyMatch(l -> l.endsWith("rollback cpu-burn: FAILED after 3 attempts: stuck refused to go; run by hand: undo stuck"));
    assertThat(result.journal().faultNode(1).get("revert").get("manual_command").asText()).isEqualTo("undo stuck");
  }

  @Test
  void aRevertThatSucceedsOnRetryIsClean() {
    FakeFault flaky = world.fault("flaky");
    flaky.revertFailures = 2;

    DrillResult result = world.run(world.experiment());

    assertThat(result.rollbackOk()).isTrue();
    assertThat(result.journal().faultNode(0).get("revert").get("attempts").asInt()).isEqualTo(3);
  }

  @Test
  void aSignalStopsTheMethodWithinOnePollAndTheRollbackRuns() {
    FakeFault fault = world.fault("burn");
    world.clock.onAdvance(now -> {
      if (world.seconds() >= 12.3) {
        world.flag.raise("SIGINT received");
      }
    });

    DrillResult result = world.run(world.experiment());

    assertThat(result.verdict()).isEqualTo(Verdict.ABORTED);
    assertThat(result.reason()).startsWith("SIGINT received;");
    assertThat(result.journal().json().get("aborted_at").asText()).isEqualTo("2026-11-29T10:00:12.400Z");
    assertThat(fault.applied).isFalse();
  }

  @Test
  void notBackWithinTheRecoveryTimeIsDeviation() {
    world.fault("burn");
    world.errorRatio = t -> t >= 30 ? 0.02 : 0.001;
    world.burnErrorRatio = t -> 0.001;

    DrillResult result = world.run(world.experiment());

    assertThat(result.verdict()).isEqualTo(Verdict.DEVIATED);
    assertThat(result.reason()).contains("not back in steady state within 30s of the rollback");
  }

  @Test
  void anInterruptedDrillStillRollsBackAndKeepsTheFlag() {
    FakeFault fault = world.fault("burn");
    world.clock.onAdvance(now -> {
      if (world.seconds() >= 7) {
        Thread.currentThread().interrupt();
      }
    });

    DrillResult result = world.run(world.experiment());

    assertThat(Thread.interrupted()).isTrue();
    assertThat(result.verdict()).isEqualTo(Verdict.ABORTED);
    assertThat(result.reason()).startsWith("interrupted;");
    assertThat(fault.applied).isFalse();
  }
}
