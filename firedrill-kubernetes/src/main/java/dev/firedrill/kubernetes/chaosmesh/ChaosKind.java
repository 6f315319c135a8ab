package dev.firedrill.kubernetes.chaosmesh;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The Chaos Mesh kinds firedrill creates, all in {@code chaos-mesh.org/v1alpha1}, namespaced, with
 * the lower-case kind as their plural ({@code podchaos}).
 */
enum ChaosKind {
  POD_CHAOS("PodChaos"),
  NETWORK_CHAOS("NetworkChaos"),
  STRESS_CHAOS("StressChaos"),
  HTTP_CHAOS("HTTPChaos"),
  IO_CHAOS("IOChaos"),
  TIME_CHAOS("TimeChaos");

  static final String GROUP = "chaos-mesh.org";
  static final String VERSION = "v1alpha1";
  static final String API_VERSION = GROUP + "/" + VERSION;

  /** PodChaos actions that act once: the object stays, and there is nothing to recover. */
  private static final List<String> ONE_SHOT = List.of("pod-kill", "container-kill");

  private final String kind;

  ChaosKind(String kind) {
    this.kind = kind;
  }

  String kind() {
    return kind;
  }

  /** The resource's plural, as kubectl names it: {@code podchaos}. */
  String plural() {
    return kind.toLowerCase(Locale.ROOT);
  }

  /** As kubectl takes it without discovery ambiguity: {@code podchaos.chaos-mesh.org}. */
  String resource() {
    return plural() + "." + GROUP;
  }

  ResourceDefinitionContext context() {
    return new ResourceDefinitionContext.Builder()
        .withGroup(GROUP)
        .withVersion(VERSION)
        .withKind(kind)
        .withPlural(plural())
        .withNamespaced(true)
        .build();
  }

  /** Whether {@code action} of this kind acts once (PodChaos pod-kill and container-kill). */
  boolean oneShot(String action) {
    return this == POD_CHAOS && ONE_SHOT.contains(action);
  }

  static Optional<ChaosKind> of(String kind) {
    return Arrays.stream(values()).filter(k -> k.kind.equals(kind)).findFirst();
  }

  static List<String> names() {
    return Arrays.stream(values()).map(ChaosKind::kind).toList();
  }
}
