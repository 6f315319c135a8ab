package dev.firedrill.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.kubernetes.testing.TestCluster;
import dev.firedrill.testing.FiredrillJar;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code firedrill plan --resolve} from the packaged jar against a live (mock) cluster, reached the
 * way a user's shell reaches it: {@code KUBECONFIG} in the environment, the context from the file.
 */
class PlanResolveJarTest {

  @TempDir Path dir;

  @Test
  void planResolveChoosesAgainstTheLivePodsWithBothNumbersAndReadsOnly() throws Exception {
    try (TestCluster cluster = new TestCluster(Duration.ofMillis(100), Duration.ofMillis(100))) {
      cluster.deployment("shop", "web", 3, Map.of("app", "web"));
      Path kubeconfig = cluster.kubeconfig(dir);
      Path experiment = dir.resolve("pod-delete.yaml");
      Files.writeString(
          experiment,
          Files.readString(Path.of("fixtures/experiments/pod-delete.yaml").toAbsolutePath())
              .replace("context: kind-lab", "context: mock"));

      FiredrillJar.Run run =
          FiredrillJar.run(
              dir,
              Duration.ofSeconds(60),
              Map.of("KUBECONFIG", kubeconfig.toString(), "HOME", dir.toString()),
              "plan",
              "--resolve",
              experiment.toString());

      assertThat(run.exit()).as(run.output()).isZero();
      assertThat(run.output())
          .contains(
              "select one: 1 of 3 running pods matching app=web,track notin (canary) in shop; the"
                  + " blast radius allows 1 (max_percent 34%, max_pods 1, rounded down)")
          .containsPattern(
              "candidates: web-\\S+, web-\\S+, web-\\S+; chosen at injection with seed -?\\d+ \\(kept"
                  + " in the journal\\)")
          .contains("cluster: kubeconfig " + kubeconfig + ", context mock")
          .contains("nothing was executed")
          .doesNotContain(TestCluster.TOKEN);
      assertThat(cluster.replacements()).as("plan deletes nothing").isZero();
      assertThat(cluster.client().pods().inNamespace("shop").list().getItems()).hasSize(3);
    }
  }
}
