package dev.firedrill.kubernetes.pods;

import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * kubectl's rollout-complete test for the workload that owns a deleted pod: the spec's generation
 * observed, and updated, ready and available replicas back to the spec. A bare ReplicaSet, which
 * kubectl's rollout does not cover, is complete when its ready and available replicas are back.
 *
 * @param kind Deployment, StatefulSet, DaemonSet or ReplicaSet
 */
record Rollout(String namespace, String kind, String name) {

  /** Why the rollout is not complete, or empty when it is; the workload's state in words. */
  Optional<String> pending(KubernetesClient client) {
    return switch (kind) {
      case "Deployment" ->
          deployment(client.apps().deployments().inNamespace(namespace).withName(name).get());
      case "StatefulSet" ->
          statefulSet(client.apps().statefulSets().inNamespace(namespace).withName(name).get());
      case "DaemonSet" ->
          daemonSet(client.apps().daemonSets().inNamespace(namespace).withName(name).get());
      default ->
          replicaSet(client.apps().replicaSets().inNamespace(namespace).withName(name).get());
    };
  }

  /** The workload as kubectl names it: {@code deployment/web}. */
  String resource() {
    return kind.toLowerCase(Locale.ROOT) + "/" + name;
  }

  /**
   * The command a human runs to watch it: {@code kubectl rollout status}, or get for a ReplicaSet.
   */
  List<String> command(Duration timeout) {
    if (kind.equals("ReplicaSet")) {
      return List.of("kubectl", "-n", namespace, "get", resource());
    }
    return List.of(
        "kubectl",
        "-n",
        namespace,
        "rollout",
        "status",
        resource(),
        "--timeout=" + Math.max(1, (timeout.toMillis() + 999) / 1000) + "s");
  }

  private Optional<String> deployment(Deployment d) {
    if (d == null) {
      return Optional.of(resource() + " is gone");
    }
    var status = d.getStatus();
    long generation = value(d.getMetadata().getGeneration());
    if (status == null || generation > value(status.getObservedGeneration())) {
      return Optional.of(resource() + ": waiting for the spec's generation to be observed");
    }
    int spec = d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
    int updated = value(status.getUpdatedReplicas());
    int available = value(status.getAvailableReplicas());
    if (updated < spec) {
      return Optional.of(resource() + ": " + updated + " of " + spec + " replicas updated");
    }
    if (value(status.getReplicas()) > updated) {
      return Optional.of(
          resource()
              + ": "
              + (value(status.getReplicas()) - updated)
              + " old replicas pending termination");
    }
    if (available < updated) {
      return Optional.of(
          resource() + ": " + available + " of " + updated + " updated replicas available");
    }
    return Optional.empty();
  }

  private Optional<String> statefulSet(StatefulSet s) {
    if (s == null) {
      return Optional.of(resource() + " is gone");
    }
    var status = s.getStatus();
    if (status == null
        || value(status.getObservedGeneration()) == 0
        || value(s.getMetadata().getGeneration()) > value(status.getObservedGeneration())) {
      return Optional.of(resource() + ": waiting for the spec's generation to be observed");
    }
    int spec = s.getSpec().getReplicas() == null ? 1 : s.getSpec().getReplicas();
    if (value(status.getReadyReplicas()) < spec) {
      return Optional.of(
          resource() + ": " + value(status.getReadyReplicas()) + " of " + spec + " pods ready");
    }
    var strategy = s.getSpec().getUpdateStrategy();
    if (strategy != null
        && strategy.getRollingUpdate() != null
        && strategy.getRollingUpdate().getPartition() != null) {
      int partitioned = spec - strategy.getRollingUpdate().getPartition();
      return value(status.getUpdatedReplicas()) < partitioned
          ? Optional.of(
              resource()
                  + ": "
                  + value(status.getUpdatedReplicas())
                  + " of "
                  + partitioned
                  + " pods updated")
          : Optional.empty();
    }
    if (status.getUpdateRevision() != null
        && !status.getUpdateRevision().equals(status.getCurrentRevision())) {
      return Optional.of(
          resource() + ": waiting for the update to revision " + status.getUpdateRevision());
    }
    return Optional.empty();
  }

  private Optional<String> daemonSet(DaemonSet d) {
    if (d == null) {
      return Optional.of(resource() + " is gone");
    }
    var status = d.getStatus();
    if (status == null
        || value(d.getMetadata().getGeneration()) > value(status.getObservedGeneration())) {
      return Optional.of(resource() + ": waiting for the spec's generation to be observed");
    }
    int desired = value(status.getDesiredNumberScheduled());
    if (value(status.getUpdatedNumberScheduled()) < desired) {
      return Optional.of(
          resource()
              + ": "
              + value(status.getUpdatedNumberScheduled())
              + " of "
              + desired
              + " pods updated");
    }
    if (value(status.getNumberAvailable()) < desired) {
      return Optional.of(
          resource()
              + ": "
              + value(status.getNumberAvailable())
              + " of "
              + desired
              + " pods available");
    }
    return Optional.empty();
  }

  private Optional<String> replicaSet(ReplicaSet r) {
    if (r == null) {
      return Optional.of(resource() + " is gone");
    }
    var status = r.getStatus();
    if (status == null
        || value(r.getMetadata().getGeneration()) > value(status.getObservedGeneration())) {
      return Optional.of(resource() + ": waiting for the spec's generation to be observed");
    }
    int spec = r.getSpec().getReplicas() == null ? 1 : r.getSpec().getReplicas();
    int available =
        Math.min(value(status.getReadyReplicas()), value(status.getAvailableReplicas()));
    return available < spec
        ? Optional.of(
            resource() + ": " + available + " of " + spec + " replicas ready and available")
        : Optional.empty();
  }

  /** The replicas in words once complete: {@code deployment/web: 3 of 3 ready}. */
  String complete(KubernetesClient client) {
    return switch (kind) {
      case "Deployment" -> {
        Deployment d = client.apps().deployments().inNamespace(namespace).withName(name).get();
        yield resource()
            + " rolled out: "
            + value(d.getStatus().getAvailableReplicas())
            + " of "
            + d.getSpec().getReplicas()
            + " updated, ready and available";
      }
      default -> resource() + " rolled out";
    };
  }

  private static int value(Integer value) {
    return value == null ? 0 : value;
  }

  private static long value(Long value) {
    return value == null ? 0 : value;
  }
}
