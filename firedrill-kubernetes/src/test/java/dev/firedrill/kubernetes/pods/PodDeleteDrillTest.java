package dev.firedrill.kubernetes.pods;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.Verdict;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.kubernetes.select.SelectionMode;
import dev.firedrill.kubernetes.testing.ClusterDrills;
import dev.firedrill.kubernetes.testing.TestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole drills with pod-delete against the mock cluster and its reconciler. The SLI is the number
 * of Ready web pods, read from the cluster itself, so the verdict follows what the controller did.
 */
class PodDeleteDrillTest {

  @TempDir Path dir;

  private static Experiment experiment(double minReady, Duration recovery, FaultSpec spec) {
    return ClusterDrills.experiment(
        "web-pod-delete",
        spec,
        Drills.blast(List.of("shop"), 0.34, null),
        minReady,
        Duration.ofMillis(600),
        recovery);
  }

  private static DrillResult run(TestCluster cluster, Experiment experiment, Path kubeconfig) {
    return ClusterDrills.run(
        cluster,
        experiment,
        spec ->
            new PodDeleteFault(
                (PodDeleteSpec) spec,
                Drills.context(
                    kubeconfig,
                    experiment.blastRadius(),
                    experiment.method().duration(),
                    experiment.hypothesis().recovery()),
                7,
                List.of()));
  }

  private static PodDeleteSpec one() {
    return Drills.spec(Drills.WEB, SelectionMode.ONE, 0, PodDeleteSpec.Via.DELETE, null);
  }

  @Test
  void heldWithTheReplacementReady() throws Exception {
    try (TestCluster cluster = new TestCluster(Duration.ofMillis(100), Duration.ofMillis(100))) {
      cluster.deployment("shop", "web", 3, Map.of("app", "web"));
      DrillResult result =
          run(cluster, experiment(2, Duration.ofSeconds(5), one()), cluster.kubeconfig(dir));
      assertThat(result.verdict()).as(result.reason()).isEqualTo(Verdict.HELD);
      assertThat(result.rollbackOk()).isTrue();
      assertThat(result.manualCommands()).isEmpty();
    }
  }

  @Test
  void aReplacementThatNeverBecomesReadyDeviatesWithTheRolloutCommandAndNoFailedRollback()
      throws Exception {
    try (TestCluster cluster = new TestCluster(Duration.ofMillis(100), Duration.ofMillis(100))) {
      cluster.deployment("shop", "web", 3, Map.of("app", "web"));
      cluster.neverMakeReplacementsReady();
      DrillResult result =
          run(cluster, experiment(3, Duration.ofMillis(600), one()), cluster.kubeconfig(dir));
      assertThat(result.verdict()).as(result.reason()).isEqualTo(Verdict.DEVIATED);
      // Nothing of the fault is left to undo: the system failed to recover, not the rollback.
      assertThat(result.rollbackOk()).isTrue();
      assertThat(result.manualCommands()).isEmpty();
      assertThat(result.reason())
          .contains(
              "the fault's targets did not recover: pod-delete: not recovered within 600ms: 2 of 3"
                  + " pods matching app=web in shop Ready again; check with: kubectl -n shop"
                  + " rollout status deployment/web --timeout=1s");
    }
  }
}
