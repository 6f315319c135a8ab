package dev.firedrill.kubernetes.chaosmesh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.Verification;
import dev.firedrill.kubernetes.testing.ChaosMeshController;
import dev.firedrill.kubernetes.testing.Kubectl;
import dev.firedrill.kubernetes.testing.TestCluster;
import dev.firedrill.time.Clock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kubectl commands chaos-mesh prints when a deletion hangs, run against the mock server. */
class ChaosMeshKubectlTest {

  @TempDir Path dir;

  @Test
  void theCommandsForAHeldDeletionWorkAndTheTokenStaysOut() throws Exception {
    try (TestCluster cluster = new TestCluster(Duration.ofMillis(100), Duration.ofMillis(100));
        ChaosMeshController chaosMesh = new ChaosMeshController(cluster)) {
      cluster.deployment("shop", "web", 3, Map.of("app", "web"));
      Path kubeconfig = cluster.kubeconfig(dir);
      chaosMesh.neverReleaseFinalizer();
      ChaosMeshFault fault =
          ChaosDrills.fault(
              kubeconfig,
              ChaosDrills.networkChaos("60s"),
              0.34,
              null,
              Duration.ofSeconds(3),
              Duration.ofMillis(300));
      fault.inject();
      assertThatThrownBy(fault::revert).isInstanceOf(FaultException.class);
      List<List<String>> commands = fault.manualCommands();
      assertThat(commands)
          .containsExactly(
              List.of(
                  "kubectl",
                  "-n",
                  "shop",
                  "get",
                  "networkchaos.chaos-mesh.org",
                  "firedrill-exp-1-0",
                  "-o",
                  "yaml"),
              List.of("kubectl", "-n", "chaos-mesh", "get", "pods"),
              List.of(
                  "kubectl",
                  "-n",
                  "shop",
                  "wait",
                  "--for=delete",
                  "networkchaos.chaos-mesh.org/firedrill-exp-1-0",
                  "--timeout=5m"));

      Kubectl.Run get = Kubectl.run(commands.get(0), kubeconfig);
      assertThat(get.exit()).as(get.output()).isZero();
      assertThat(get.output())
          .contains("name: firedrill-exp-1-0", "- chaos-mesh/records", "deletionTimestamp:")
          .contains("firedrill.dev/experiment: exp-1", "type: AllRecovered")
          .doesNotContain(TestCluster.TOKEN);

      Kubectl.Run controller = Kubectl.run(commands.get(1), kubeconfig);
      assertThat(controller.exit()).as(controller.output()).isZero();
      assertThat(controller.output()).isEqualTo("No resources found in chaos-mesh namespace.\n");

      // Chaos Mesh is repaired and recovers; the mock refuses kubectl's watch after its first
      // list, so the wait runs once the object is gone and answers from that list.
      chaosMesh.releaseFinalizers();
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (!chaosMesh.objects("NetworkChaos", "shop").isEmpty() && System.nanoTime() < deadline) {
        Clock.system().sleep(Duration.ofMillis(50));
      }
      Kubectl.Run wait = Kubectl.run(commands.get(2), kubeconfig);
      assertThat(wait.exit()).as(wait.output()).isZero();
      // firedrill saw the object held with AllRecovered False and, no longer watching, never saw
      // it recover: gone is not enough, since a finalizer forced off by hand ends it the same way.
      assertThat(fault.verify())
          .isEqualTo(
              Verification.remaining(
                  "NetworkChaos shop/firedrill-exp-1-0 is gone, but firedrill never saw it"
                      + " AllRecovered: Chaos Mesh may not have recovered the pods web-0; check"
                      + " them by hand"));
    }
  }
}
