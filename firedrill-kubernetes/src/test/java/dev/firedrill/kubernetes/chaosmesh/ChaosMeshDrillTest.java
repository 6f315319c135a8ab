package dev.firedrill.kubernetes.chaosmesh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.Verdict;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.kubernetes.testing.ChaosMeshShop;
import dev.firedrill.kubernetes.testing.ClusterDrills;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Whole drills with a chaos-mesh fault, through the real engine and its rollback. */
class ChaosMeshDrillTest {

  @TempDir Path dir;
  @RegisterExtension final ChaosMeshShop shop = new ChaosMeshShop(Duration.ofMillis(100));

  /** A NetworkChaos drill; the faults it made are kept in {@code made}. */
  private DrillResult drill(
      Duration injectTimeout, Duration deleteTimeout, List<ChaosMeshFault> made) {
    ChaosMeshSpec spec =
        ChaosDrills.spec(ChaosDrills.networkChaos("60s"), injectTimeout, deleteTimeout);
    Experiment experiment =
        ClusterDrills.experiment(
            "exp-1",
            spec,
            ChaosDrills.blast(0.34, null),
            3,
            Duration.ofMillis(600),
            Duration.ofSeconds(5));
    return ClusterDrills.run(
        shop.cluster(),
        experiment,
        s -> {
          ChaosMeshFault fault =
              new ChaosMeshFault(
                  (ChaosMeshSpec) s,
                  ChaosDrills.context(shop.kubeconfig(), experiment.blastRadius()),
                  0);
          made.add(fault);
          return fault;
        });
  }

  @Test
  void heldAndRevertedCleanly() {
    DrillResult result = drill(Duration.ofSeconds(3), Duration.ofSeconds(3), new ArrayList<>());
    assertThat(result.verdict()).as(result.reason()).isEqualTo(Verdict.HELD);
    assertThat(result.rollbackOk()).isTrue();
    assertThat(result.manualCommands()).isEmpty();
    assertThat(shop.chaosMesh().objects("NetworkChaos", "shop")).isEmpty();
  }

  @Test
  void neverAllInjectedFailsAndTheRollbackLeavesNothing() {
    shop.chaosMesh().neverInject();
    DrillResult result = drill(Duration.ofMillis(500), Duration.ofSeconds(3), new ArrayList<>());
    assertThat(result.verdict()).as(result.reason()).isEqualTo(Verdict.FAILED);
    assertThat(result.reason())
        .contains(
            "chaos-mesh: NetworkChaos shop/firedrill-exp-1-0 was not injected within 500ms"
                + " (Selected True, AllInjected False, AllRecovered False); the rollback deletes"
                + " it");
    assertThat(result.rollbackOk()).isTrue();
    assertThat(shop.chaosMesh().objects("NetworkChaos", "shop")).isEmpty();
  }

  @Test
  void aDeletionHeldByTheFinalizerIsAFailedRollbackWithTheCommands() {
    shop.chaosMesh().neverReleaseFinalizer();
    List<ChaosMeshFault> made = new ArrayList<>();
    DrillResult result = drill(Duration.ofSeconds(3), Duration.ofMillis(300), made);
    // ExitCode.of(DrillResult) returns 7 for any result whose rollback failed.
    assertThat(result.rollbackOk()).as(result.reason()).isFalse();
    assertThat(result.manualCommands()).containsExactly(made.get(0).manualRevertCommand());
    assertThat(result.manualCommands().get(0))
        .startsWith(
            "kubectl -n shop get networkchaos.chaos-mesh.org firedrill-exp-1-0 -o yaml && kubectl"
                + " -n chaos-mesh get pods && kubectl -n shop wait --for=delete"
                + " networkchaos.chaos-mesh.org/firedrill-exp-1-0 --timeout=5m (do not remove the"
                + " chaos-mesh/records finalizer by hand");
    assertThat(
            shop.chaosMesh().objects("NetworkChaos", "shop").get(0).getMetadata().getFinalizers())
        .containsExactly("chaos-mesh/records");
  }
}
