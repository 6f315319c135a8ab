package dev.firedrill.kubernetes.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The cluster every chaos-mesh test starts from, fresh for each test: the mock API server with its
 * reconciler and a Chaos Mesh controller beside it, a kubeconfig pointing at it, and the deployment
 * {@code shop/web} of three pods labelled {@code app=web}.
 */
public final class ChaosMeshShop implements BeforeEachCallback, AfterEachCallback {

  private final Duration delay;
  private Path dir;
  private TestCluster cluster;
  private ChaosMeshController chaosMesh;
  private Path kubeconfig;

  /**
   * @param delay how long the reconciler takes to replace a pod and to call it ready
   */
  public ChaosMeshShop(Duration delay) {
    this.delay = delay;
  }

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    dir = Files.createTempDirectory("chaos-mesh-shop");
    cluster = new TestCluster(delay, delay);
    chaosMesh = new ChaosMeshController(cluster);
    kubeconfig = cluster.kubeconfig(dir);
    cluster.deployment("shop", "web", 3, Map.of("app", "web"));
  }

  @Override
  public void afterEach(ExtensionContext context) throws IOException {
    chaosMesh.close();
    cluster.close();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    }
  }

  public TestCluster cluster() {
    return cluster;
  }

  public ChaosMeshController chaosMesh() {
    return chaosMesh;
  }

  public Path kubeconfig() {
    return kubeconfig;
  }
}
