package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The milestones a drill hands to its markers, in order, with the drill's clock times. */
class MilestoneTest {

  private final ScriptedWorld world = new ScriptedWorld();

  @Test
  void aHeldDrillReportsEachPhaseFaultAndMeasurementInOrder() {
    world.fault("burn");
    world.run(world.experiment());

    List<String> kinds = world.milestones.stream().map(m -> m.getClass().getSimpleName()).distinct().toList();
    assertThat(kinds).containsExactly("Planned", "DrillStarted", "PhaseStarted", "Measured", "FaultInjecting",
        "FaultInjected", "FaultReverting", "FaultReverted", "RolledBack", "Recovered", "DrillFinished");
    assertThat(world.milestones).filteredOn(Milestone.PhaseStarted.class::isInstance)
        .extracting(m -> ((Milestone.PhaseStarted) m).phase())
        .containsExactly(Phase.PREFLIGHT, Phase.INJECT, Phase.DURING, Phase.ROLLBACK, Phase.AFTER);
    Milestone.FaultReverted reverted = only(Milestone.FaultReverted.class);
    assertThat(reverted.reverted()).isTrue();
    assertThat(reverted.at()).isEqualTo(ScriptedWorld.START.plusSeconds(60));
    Milestone.DrillFinished finished = only(Milestone.DrillFinished.class);
    assertThat(finished.verdict()).isEqualTo(Verdict.HELD);
    assertThat(finished.abortReason()).isEmpty();
  }

  @Test
  void aRefusedPlanIsPlannedAndRefusedAndNeverStarts() {
    world.fault("burn");

    world.run(world.experiment(Duration.ofMinutes(20), dev.firedrill.experiment.Missing.FAIL));

    assertThat(world.milestones).extracting(m -> m.getClass().getSimpleName()).containsExactly("Planned", "Refused");
    Milestone.Planned planned = only(Milestone.Planned.class);
    assertThat(planned.refusals()).containsExactly("method.duration 20m is above blast_radius.max_duration 15m");
    assertThat(planned.faults()).extracting(Milestone.FaultActions::actions).containsExactly(List.of("apply burn"));
    assertThat(world.lines()).containsExactly(
        "+0.0s plan " + planned.budget().orElseThrow().text(),
        "+0.0s plan cpu-burn: apply burn",
        "+0.0s plan refused: method.duration 20m is above blast_radius.max_duration 15m",
        "+0.0s verdict refused: method.duration 20m is above blast_radius.max_duration 15m");
  }

  @Test
  void eachFaultsMilestonesCarryWhatTheConsoleAndTheJournalSay() {
    world.fault("burn");
    world.run(world.experiment());

    Milestone.FaultInjected injected = only(Milestone.FaultInjected.class);
    assertThat(injected.actions()).containsExactly("apply burn");
    assertThat(injected.offset()).isEqualTo(Duration.ZERO);
    Milestone.FaultReverted reverted = only(Milestone.FaultReverted.class);
    assertThat(reverted.attempts()).isEqualTo(1);
    assertThat(reverted.manualCommand()).isEmpty();
    assertThat(reverted.offset()).isEqualTo(Duration.ofSeconds(60));
    assertThat(world.lines()).contains("+0.0s inject cpu-burn: apply burn",
        "+60.0s rollback cpu-burn: " + reverted.detail() + " (attempt 1)");
  }

  @Test
  void anAbortIsMarkedBeforeTheRollbackAndCarriedToTheEnd() {
    world.fault("burn");
    world.errorRatio = t -> t >= 15 ? 0.2 : 0.001;

    world.run(world.experiment());

    Milestone.Aborted aborted = only(Milestone.Aborted.class);
    assertThat(aborted.reason()).startsWith("burn rate 200 above 100");
    assertThat(world.milestones.indexOf(aborted)).isLessThan(world.milestones.indexOf(only(Milestone.FaultReverting.class)));
    assertThat(only(Milestone.DrillFinished.class).abortReason()).contains(aborted.reason());
    assertThat(world.milestones).filteredOn(Milestone.Measured.class::isInstance)
        .map(m -> ((Milestone.Measured) m).measurement().status().text())
        .last().isEqualTo("breach");
  }

  @Test
  void aFailedInjectionIsMarkedWithItsReason() {
    FakeFault fault = world.fault("burn");
    fault.failInject = true;

    world.run(world.experiment());

    Milestone.FaultInjected injected = only(Milestone.FaultInjected.class);
    assertThat(injected.applied()).isFalse();
    assertThat(injected.failure()).contains("burn could not start");
  }

  @Test
  void anObserverThatThrowsNeverStopsTheDrillOrItsRollback() {
    FakeFault fault = world.fault("burn");
    DrillPorts ports = new DrillPorts(world.measurer(world.experiment()), world.provider(), world.flag, world.clock,
        Optional.empty()).withObserver(milestone -> {
          throw new IllegalStateException("marker down");
        });

    DrillResult result = new Drill(world.experiment(), "test.yaml", ports).run();

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    assertThat(fault.applied).isFalse();
  }

  @Test
  void compositeClosesEveryObserverEvenWhenOneHangs() {
    List<String> closed = new java.util.concurrent.CopyOnWriteArrayList<>();
    DrillObserver hangs = new DrillObserver() {
      @Override
      public void on(Milestone milestone) {}

      @Override
      public void close(Duration limit) {
        try {
          new java.util.concurrent.CountDownLatch(1).await(); // a sink that never finishes closing
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
    DrillObserver quick = new DrillObserver() {
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
    List<T> found = world.milestones.stream().filter(type::isInstance).map(type::cast).toList();
    assertThat(found).hasSize(1);
    return found.get(0);
  }
}
