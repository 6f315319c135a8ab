package dev.firedrill.kubernetes.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TestClusterTest {

  @Test
  void replacesADeletedPodAndWritesTheDeploymentStatus() {
    try (TestCluster cluster = new TestCluster(Duration.ofMillis(100), Duration.ofMillis(100))) {
      cluster.deployment("shop", "web", 3, Map.of("app", "web"));
      Deployment ready =
          cluster.client().apps().deployments().inNamespace("shop").withName("web").get();
      assertThat(ready.getStatus().getReadyReplicas()).isEqualTo(3);
      assertThat(ready.getStatus().getObservedGeneration()).isEqualTo(1L);
      cluster.client().pods().inNamespace("shop").withName("web-1").delete();
      cluster
          .client()
          .apps()
          .deployments()
          .inNamespace("shop")
          .withName("web")
          .waitUntilCondition(
              d ->
                  cluster.replacements() == 1
                      && Integer.valueOf(3).equals(d.getStatus().getReadyReplicas()),
              5,
              TimeUnit.SECONDS);
      assertThat(cluster.replacements()).isEqualTo(1);
      assertThat(cluster.client().pods().inNamespace("shop").list().getItems())
          .extracting(Pod::getMetadata)
          .extracting(m -> m.getName())
          .containsExactlyInAnyOrder("web-0", "web-2", "web-rs-r1");
    }
  }
}
