package dev.firedrill.kubernetes.chaosmesh;

import dev.firedrill.kubernetes.testing.ChaosMeshController;
import dev.firedrill.kubernetes.testing.TestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChaosMeshFaultTest {

  @TempDir Path dir;
  private TestCluster cluster;
  private ChaosMeshController chaosMesh;
  private Path kubeconfig;

  @BeforeEach
  void start() throws Exception {
    cluster = new TestCluster(Duration.ofMillis(200), Duration.ofMillis(200));
    chaosMesh = new ChaosMeshController(cluster);
    kubeconfig = cluster.kubeconfig(dir);
    cluster.deployment("shop", "web", 3, Map.of("app", "web"));
  }

  @AfterEach
  void stop() {
    chaosMesh.close();
    cluster.close();
  }

  @Test
  void injectedAndRevertedCleanly() throws Exception {
    ChaosMeshFault fault =
        ChaosDrills.fault(kubeconfig, ChaosDrills.networkChaos("60s"), 0.34, null);
    fault.inject();
    System.out.println(chaosMesh.objects("NetworkChaos", "shop"));
    fault.revert();
    System.out.println(fault.verify());
    System.out.println(chaosMesh.objects("NetworkChaos", "shop"));
  }
}
