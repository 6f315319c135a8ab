package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.testing.ScriptedFault;
import dev.firedrill.testing.ScriptedPrometheus;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The milestones a drill hands to its markers, in order, with the drill's clock times. */
class MilestoneTest {

  private final ScriptedDrill drill = new ScriptedDrill();

  @Test
  void aHeldDrillReportsEachPhaseFaultAndMeasurementInOrder() {
    drill.fault("burn");
    drill.run();

    List<String> kinds =
        drill.milestones().stream().map(m -> m.getClass().getSimpleName()).distinct().toList();
    assertThat(kinds)
        .containsExactly(
            "Planned",
            "DrillStarted",
            "PhaseStarted",
            "Measured",
            "FaultInjecting",
            "FaultInjected",
            "FaultReverting",
            "FaultReverted",
            "RolledBack",
            "Recovered",
            "DrillFinished");
    assertThat(drill.milestones(Milestone.PhaseStarted.class))
        .extracting(Milestone.PhaseStarted::phase)
        .containsExactly(Phase.PREFLIGHT, Phase.INJECT, Phase.DURING, Phase.ROLLBACK, Phase.AFTER);
    Milestone.FaultReverted reverted = only(Milestone.FaultReverted.class);
    assertThat(reverted.reverted()).isTrue();
    assertThat(reverted.at()).isEqualTo(ScriptedDrill.START.plusSeconds(60));
    Milestone.DrillFinished finished = only(Milestone.DrillFinished.class);
    assertThat(finished.verdict()).isEqualTo(Verdict.HELD);
    assertThat(finished.abortReason()).isEmpty();
  }

  @Test
  void aRefusedPlanIsPlannedAndRefusedAndNeverStarts() {
    drill.fault("burn");

    drill.run(drill.experiment().method(drill.method(Duration.ofMinutes(20))).build());

    assertThat(drill.milestones())
        .extracting(m -> m.getClass().getSimpleName())
        .containsExactly("Planned", "Refused");
    Milestone.Planned planned = only(Milestone.Planned.class);
    assertThat(planned.refusals())
        .containsExactly("method.duration 20m is above blast_radius.max_duration 15m");
    assertThat(planned.faults())
        .extracting(Milestone.FaultActions::actions)
        .containsExactly(List.of("apply burn"));
    assertThat(drill.lines())
        .containsExactly(
            "+0.0s plan " + planned.budget().orElseThrow().text(),
            "+0.0s plan cpu-burn: apply burn",
            "+0.0s plan refused: method.duration 20m is above blast_radius.max_duration 15m",
            "+0.0s verdict refused: method.duration 20m is above blast_radius.max_duration 15m");
  }

  @Test
  void eachFaultsMilestonesCarryWhatTheConsoleAndTheJournalSay() {
    drill.fault("burn");
    drill.run();

    Milestone.FaultInjected injected = only(Milestone.FaultInjected.class);
    assertThat(injected.actions()).containsExactly("apply burn");
    assertThat(injected.offset()).isEqualTo(Duration.ZERO);
    Milestone.FaultReverted reverted = only(Milestone.FaultReverted.class);
    assertThat(reverted.attempts()).isEqualTo(1);
    assertThat(reverted.manualCommand()).isEmpty();
    assertThat(reverted.offset()).isEqualTo(Duration.ofSeconds(60));
    assertThat(drill.lines())
        .contains(
            "+0.0s inject cpu-burn: apply burn",
            "+60.0s rollback cpu-burn: " + reverted.detail() + " (attempt 1)");
  }

  @Test
  void anAbortIsMarkedBeforeTheRollbackAndCarriedToTheEnd() {
    drill.fault("burn");
    drill
        .prometheus()
        .answer(
            ScriptedDrill.GUARD_ERROR_RATIO, t -> ScriptedPrometheus.value(t >= 15 ? 0.2 : 0.001));

    drill.run();

    Milestone.Aborted aborted = only(Milestone.Aborted.class);
    assertThat(aborted.reason()).startsWith("burn rate 200 above 100");
    assertThat(drill.milestones().indexOf(aborted))
        .isLessThan(drill.milestones().indexOf(only(Milestone.FaultReverting.class)));
    assertThat(only(Milestone.DrillFinished.class).abortReason()).contains(aborted.reason());
    assertThat(drill.milestones(Milestone.Measured.class))
        .map(m -> m.measurement().status().text())
        .last()
        .isEqualTo("breach");
  }

  @Test
  void aFailedInjectionIsMarkedWithItsReason() {
    drill.fault("burn").failsToInject();

    drill.run();

    Milestone.FaultInjected injected = only(Milestone.FaultInjected.class);
    assertThat(injected.applied()).isFalse();
    assertThat(injected.failure()).contains("burn could not start");
  }

  @Test
  void anObserverThatThrowsNeverStopsTheDrillOrItsRollback() {
    ScriptedFault fault = drill.fault("burn");

    DrillResult result =
        drill
            .observer(
                milestone -> {
                  throw new IllegalStateException("marker down");
                })
            .run();

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    assertThat(fault.applied()).isFalse();
  }

  @Test
  void compositeClosesEveryObserverEvenWhenOneHangs() {
    List<String> closed = new java.util.concurrent.CopyOnWriteArrayList<>();
    DrillObserver hangs =
        new DrillObserver() {
          @Override
          public void on(Milestone milestone) {}

          @Override
          public void close(Duration limit) {
            try {
              new java.util.concurrent.CountDownLatch(1)
                  .await(); // a sink that never finishes closing
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        };
    DrillObserver quick =
        new DrillObserver() {
          @Override
          public void on(Milestone milestone) {}

          @Override
          public void close(Duration limit) {
            closed.add("quick");
          }
        };

    long begin = System.nanoTime();
    DrillObserver.composite(List.of(hangs, quick)).close(Duration.ofMillis(200));

    assertThat(closed).containsExactly("quick");
    assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(Duration.ofSeconds(5));
  }

  private <T extends Milestone> T only(Class<T> type) {
    List<T> found = drill.milestones(type);
    assertThat(found).hasSize(1);
    return found.get(0);
  }
}
