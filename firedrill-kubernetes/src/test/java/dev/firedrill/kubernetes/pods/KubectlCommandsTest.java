package dev.firedrill.kubernetes.pods;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.kubernetes.access.ClientText;
import dev.firedrill.kubernetes.select.LabelRequirement;
import dev.firedrill.kubernetes.select.PodSelector;
import dev.firedrill.kubernetes.select.SelectionMode;
import dev.firedrill.kubernetes.testing.Kubectl;
import dev.firedrill.kubernetes.testing.Kubectl.Run;
import dev.firedrill.kubernetes.testing.TestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kubectl commands pod-delete prints for humans, run against the mock server. */
class KubectlCommandsTest {

  @TempDir Path dir;

  @Test
  void theRolloutStatusCommandWorksAndTheTokenStaysOut() throws Exception {
    try (TestCluster cluster = new TestCluster(Duration.ofMillis(100), Duration.ofMillis(100))) {
      cluster.deployment("shop", "web", 3, Map.of("app", "web"));
      Path kubeconfig = cluster.kubeconfig(dir);
      PodDeleteFault fault =
          new PodDeleteFault(
              Drills.spec(Drills.WEB, SelectionMode.ONE, 0, PodDeleteSpec.Via.DELETE, null),
              Drills.context(
                  kubeconfig,
                  Drills.blast(List.of("shop"), 0.34, null),
                  Duration.ofSeconds(1),
                  Duration.ofSeconds(5)),
              9,
              List.of());
      fault.inject();
      fault.revert();
      List<List<String>> commands = fault.manualCommands();
      assertThat(commands)
          .containsExactly(
              List.of(
                  "kubectl", "-n", "shop", "rollout", "status", "deployment/web", "--timeout=5s"));
      assertThat(fault.manualRevertCommand()).isEqualTo(ClientText.shell(commands.get(0)));
      long started = System.nanoTime();
      Run run = Kubectl.run(commands.get(0), kubeconfig);
      System.out.println(
          "kubectl rollout status took " + (System.nanoTime() - started) / 1_000_000 + " ms");
      // The mock refuses kubectl's watch after the first list; the verdict comes from that list.
      assertThat(run.output()).startsWith("deployment \"web\" successfully rolled out\n");
      assertThat(run.exit()).isZero();
    }
  }

  @Test
  void theGetPodsCommandForBarePodsTakesTheSetBasedSelector() throws Exception {
    try (TestCluster cluster = new TestCluster(Duration.ofMillis(100), Duration.ofMillis(100))) {
      cluster.deployment("shop", "web", 2, Map.of("app", "web"));
      Path kubeconfig = cluster.kubeconfig(dir);
      PodSelector selector =
          new PodSelector(
              "shop",
              Map.of("app", "web"),
              List.of(
                  new LabelRequirement(
                      "track", LabelRequirement.Operator.NOT_IN, List.of("canary"))),
              List.of());
      PodDeleteFault fault =
          new PodDeleteFault(
              Drills.spec(selector, SelectionMode.ONE, 0, PodDeleteSpec.Via.DELETE, null),
              Drills.context(
                  kubeconfig,
                  Drills.blast(List.of("shop"), null, null),
                  Duration.ofSeconds(1),
                  Duration.ofSeconds(5)),
              9,
              List.of());
      List<String> get = fault.manualCommands().get(0);
      assertThat(get)
          .containsExactly(
              "kubectl", "-n", "shop", "get", "pods", "-l", "app=web,track notin (canary)");
      assertThat(fault.manualRevertCommand())
          .isEqualTo("kubectl -n shop get pods -l 'app=web,track notin (canary)'");
      Run run = Kubectl.run(get, kubeconfig);
      assertThat(run.exit()).as(run.output()).isZero();
      assertThat(run.output()).contains("web-0", "web-1").doesNotContain(TestCluster.TOKEN);
    }
  }
}
