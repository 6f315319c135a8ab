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
    assertThat(kinds).containsExactly("DrillStarted", "PhaseStarted", "Measured", "FaultInjecting", "FaultInjected",
        "FaultReverting", "FaultReverted", "DrillFinished");
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
        world.events::add, Optional.empty()).withObserver(milestone -> {
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
