package dev.firedrill.kubernetes.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that refuses a token may quote it in its Status message, which the client puts in its
 * exception's first line twice: the message the faults print has neither.
 */
class ClientTextTest {

  private static final String TOKEN = "kc-token-8d2e41b7f0";

  @TempDir Path dir;

  @Test
  void aTokenTheServerQuotesIsRedactedOnceTheKubeconfigsClientIsMade() throws Exception {
    Path kubeconfig =
        Files.writeString(
            dir.resolve("kubeconfig"),
            "apiVersion: v1\nkind: Config\ncurrent-context: lab\nclusters:\n- name: lab\n"
                + "  cluster:\n    server: http://127.0.0.1:9\ncontexts:\n- name: lab\n  context:\n"
                + "    cluster: lab\n    user: drills\nusers:\n- name: drills\n  user:\n    token: "
                + TOKEN
                + "\n");
    KubernetesAccess access =
        new KubernetesAccess(
            Map.of("KUBECONFIG", kubeconfig.toString()), dir.resolve("no-service-account"));
    try (KubernetesClient ignored = access.connect(Optional.empty())) {
      // its credentials are known from here on
    }
    KubernetesClientException refused =
        new KubernetesClientException(
            "Failure executing: GET at: http://127.0.0.1:9/api/v1/namespaces/shop/pods. Message:"
                + " Unauthorized: token "
                + TOKEN
                + " is unknown. Received status: Status(apiVersion=v1, code=401, message=Unauthorized:"
                + " token "
                + TOKEN
                + " is unknown, reason=Unauthorized).\nAuthorization: Bearer "
                + TOKEN);

    assertThat(ClientText.safe(refused))
        .isEqualTo(
            "Failure executing: GET at: http://127.0.0.1:9/api/v1/namespaces/shop/pods. Message:"
                + " Unauthorized: token <redacted> is unknown.");
  }
}
