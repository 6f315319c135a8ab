package dev.firedrill.kubernetes.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.kubernetes.testing.TestCluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubernetesAccessTest {

  @TempDir Path dir;

  @Test
  void connectsThroughKubeconfigAtItsCurrentContext() throws Exception {
    try (TestCluster cluster = new TestCluster(Duration.ofMillis(100), Duration.ofMillis(100))) {
      cluster.deployment("shop", "web", 2, Map.of("app", "web"));
      Path kubeconfig = cluster.kubeconfig(dir);
      KubernetesAccess access = new KubernetesAccess(Map.of("KUBECONFIG", kubeconfig.toString()));
      try (KubernetesClient client = access.connect(Optional.empty())) {
        assertThat(client.pods().inNamespace("shop").list().getItems()).hasSize(2);
      }
      assertThat(access.describe(Optional.empty()))
          .isEqualTo("kubeconfig " + kubeconfig + ", context (current)");
    }
  }

  @Test
  void anUnknownContextNamesTheFileAndItsContextsButNeverTheToken() throws Exception {
    try (TestCluster cluster = new TestCluster(Duration.ofMillis(100), Duration.ofMillis(100))) {
      Path kubeconfig = cluster.kubeconfig(dir);
      KubernetesAccess access = new KubernetesAccess(Map.of("KUBECONFIG", kubeconfig.toString()));
      assertThatThrownBy(() -> access.connect(Optional.of("prod")))
          .hasMessage("the kubeconfig " + kubeconfig + " has no context prod; its contexts: mock")
          .message()
          .doesNotContain(TestCluster.TOKEN);
    }
  }

  @Test
  void aBrokenKubeconfigNeverEchoesItsToken() throws Exception {
    Path kubeconfig = dir.resolve("broken");
    Files.writeString(
        kubeconfig, "users:\n- name: x\n  user:\n    token: " + TestCluster.TOKEN + "\n  : [\n");
    KubernetesAccess access = new KubernetesAccess(Map.of("KUBECONFIG", kubeconfig.toString()));
    assertThatThrownBy(() -> access.connect(Optional.empty()))
        .hasMessage("cannot read the kubeconfig " + kubeconfig + ": not a kubeconfig")
        .message()
        .doesNotContain(TestCluster.TOKEN);
  }

  @Test
  void withoutKubeconfigOrServiceAccountItSaysWhatItLookedFor() {
    KubernetesAccess access =
        new KubernetesAccess(Map.of("HOME", dir.toString()), dir.resolve("no-token"));
    assertThatThrownBy(() -> access.connect(Optional.empty()))
        .hasMessage(
            "no way to reach a cluster: KUBECONFIG is unset, ~/.kube/config does not exist, and"
                + " this is not a pod with a service account ("
                + dir.resolve("no-token")
                + ")");
  }
}
