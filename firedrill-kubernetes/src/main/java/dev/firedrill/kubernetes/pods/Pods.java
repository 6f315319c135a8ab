package dev.firedrill.kubernetes.pods;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Optional;

/** What pod-delete reads of a pod. */
final class Pods {

  private Pods() {}

  static boolean running(Pod pod) {
    return pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase());
  }

  static boolean terminating(Pod pod) {
    return pod.getMetadata().getDeletionTimestamp() != null;
  }

  static boolean ready(Pod pod) {
    return pod.getStatus() != null
        && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  /** A candidate: Running and not already being deleted. */
  static boolean candidate(Pod pod) {
    return running(pod) && !terminating(pod);
  }

  /** Not serving: not Running, not Ready, or terminating; an interval round counts it disrupted. */
  static boolean disrupted(Pod pod) {
    return !candidate(pod) || !ready(pod);
  }

  static String name(Pod pod) {
    return pod.getMetadata().getName();
  }

  static Optional<OwnerReference> controller(Pod pod) {
    return pod.getMetadata().getOwnerReferences() == null
        ? Optional.empty()
        : pod.getMetadata().getOwnerReferences().stream()
            .filter(o -> Boolean.TRUE.equals(o.getController()))
            .findFirst();
  }
}
