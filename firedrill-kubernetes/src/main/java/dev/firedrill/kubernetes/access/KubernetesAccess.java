package dev.firedrill.kubernetes.access;

import dev.firedrill.fault.FaultException;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one way firedrill reaches a cluster: the kubeconfig ({@code KUBECONFIG}, else {@code
 * ~/.kube/config}) at its current context or the experiment's {@code kubernetes.context}, else the
 * pod's service account when firedrill runs in a cluster. Errors name the file and the context,
 * never what the file holds: a parser's message may quote a token.
 */
public final class KubernetesAccess {

  /** Where a pod's service account token is mounted. */
  static final Path SERVICE_ACCOUNT_TOKEN =
      Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token");

  private final Map<String, String> environment;
  private final Path serviceAccountToken;

  /** Reads {@code KUBECONFIG} and {@code HOME} from {@code environment}. */
  public KubernetesAccess(Map<String, String> environment) {
    this(environment, SERVICE_ACCOUNT_TOKEN);
  }

  KubernetesAccess(Map<String, String> environment, Path serviceAccountToken) {
    this.environment = Map.copyOf(environment);
    this.serviceAccountToken = serviceAccountToken;
  }

  /** A client for {@code context} (empty: the kubeconfig's current one). */
  public KubernetesClient connect(Optional<String> context) throws FaultException {
    Config config = config(context);
    // firedrill waits on its own clock; fabric8's retries would turn an eviction's 429 (a
    // PodDisruptionBudget's no, which skips the pod) into twenty seconds of backoff.
    config.setRequestRetryBackoffLimit(0);
    // A kubeconfig's token is the "auto" one; a service account's or a system property's the other.
    ClientText.hide(config.getAutoOAuthToken());
    ClientText.hide(config.getOauthToken());
    ClientText.hide(config.getPassword());
    ClientText.hide(config.getProxyPassword());
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  /** Where the client's settings come from, for {@code plan}: a file and a context, no secret. */
  public String describe(Optional<String> context) {
    Optional<Path> file = kubeconfig();
    if (file.isPresent()) {
      return "kubeconfig " + file.get() + ", context " + context.orElse("(current)");
    }
    return "the pod's service account";
  }

  Config config(Optional<String> context) throws FaultException {
    Optional<Path> file = kubeconfig();
    if (file.isEmpty()) {
      if (Files.isReadable(serviceAccountToken)) {
        if (context.isPresent()) {
          throw new FaultException(
              "kubernetes.context "
                  + context.get()
                  + " needs a kubeconfig, and there is none (KUBECONFIG unset, no ~/.kube/config);"
                  + " in a pod, leave kubernetes.context out to use the service account");
        }
        return Config.autoConfigure(null);
      }
      throw new FaultException(
          "no way to reach a cluster: KUBECONFIG is unset, ~/.kube/config does not exist, and"
              + " this is not a pod with a service account ("
              + serviceAccountToken
              + ")");
    }
    File kubeconfig = file.get().toFile();
    io.fabric8.kubernetes.api.model.Config parsed;
    try {
      parsed = KubeConfigUtils.parseConfig(kubeconfig);
    } catch (RuntimeException e) { // its message may quote the file, tokens included
      throw new FaultException("cannot read the kubeconfig " + file.get() + ": not a kubeconfig");
    }
    List<String> contexts =
        parsed.getContexts() == null
            ? List.of()
            : parsed.getContexts().stream().map(NamedContext::getName).toList();
    String chosen = context.orElse(parsed.getCurrentContext());
    if (chosen == null || chosen.isBlank()) {
      throw new FaultException(
          "the kubeconfig "
              + file.get()
              + " has no current context; set kubernetes.context to one of: "
              + (contexts.isEmpty() ? "(none)" : String.join(", ", contexts)));
    }
    if (!contexts.contains(chosen)) {
      throw new FaultException(
          "the kubeconfig "
              + file.get()
              + " has no context "
              + chosen
              + "; its contexts: "
              + (contexts.isEmpty() ? "(none)" : String.join(", ", contexts)));
    }
    try {
      return Config.fromKubeconfig(chosen, kubeconfig);
    } catch (RuntimeException e) {
      throw new FaultException(
          "cannot use context "
              + chosen
              + " of the kubeconfig "
              + file.get()
              + ": "
              + e.getClass().getSimpleName());
    }
  }

  /** The first existing file of {@code KUBECONFIG} (a path list), else {@code ~/.kube/config}. */
  Optional<Path> kubeconfig() {
    String listed = environment.get("KUBECONFIG");
    if (listed != null && !listed.isBlank()) {
      for (String entry : listed.split(File.pathSeparator)) {
        if (!entry.isBlank() && Files.isRegularFile(Path.of(entry))) {
          return Optional.of(Path.of(entry));
        }
      }
      return Optional.empty();
    }
    String home = environment.get("HOME");
    if (home == null) {
      return Optional.empty();
    }
    Path standard = Path.of(home, ".kube", "config");
    return Files.isRegularFile(standard) ? Optional.of(standard) : Optional.empty();
  }
}
