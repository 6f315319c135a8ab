package dev.firedrill.kubernetes.chaosmesh;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.kubernetes.select.Selection;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * chaos-mesh: one Chaos Mesh object (PodChaos, NetworkChaos, StressChaos, HTTPChaos, IOChaos,
 * TimeChaos), read from a manifest file or inline, as it will be created (firedrill replaces its
 * name and adds its labels). {@code duration} is its {@code spec.duration}, which Chaos Mesh counts
 * from the object's creation; empty when the object has none (refused).
 */
public record ChaosMeshSpec(
    ObjectNode object,
    String chaosKind,
    String namespace,
    String action,
    ChaosSelector selector,
    Selection selection,
    Optional<Duration> duration,
    Duration injectTimeout,
    Duration deleteTimeout,
    Optional<Duration> ttl)
    implements FaultSpec {

  public ChaosMeshSpec {
    object = Objects.requireNonNull(object, "object").deepCopy();
    Objects.requireNonNull(chaosKind, "chaosKind");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(selector, "selector");
    Objects.requireNonNull(selection, "selection");
    duration = duration == null ? Optional.empty() : duration;
    Objects.requireNonNull(injectTimeout, "injectTimeout");
    Objects.requireNonNull(deleteTimeout, "deleteTimeout");
    ttl = ttl == null ? Optional.empty() : ttl;
  }

  /** A copy: the record's own tree is never handed out to be changed. */
  @Override
  public ObjectNode object() {
    return object.deepCopy();
  }

  ChaosKind kindOfChaos() {
    return ChaosKind.of(chaosKind).orElseThrow();
  }

  /** Whether it acts once (pod-kill, container-kill) rather than holding a fault in place. */
  public boolean oneShot() {
    return kindOfChaos().oneShot(action);
  }

  @Override
  public String kind() {
    return ChaosMeshKind.NAME;
  }

  /** {@code PodChaos pod-kill on pods app=web in shop}. */
  @Override
  public String target() {
    return chaosKind + " " + action + " on pods " + selector.text();
  }

  /** The namespace of the pods, for the gauge's target, Grafana's tags and span attributes. */
  @Override
  public String targetName() {
    return String.join(",", selector.namespaces());
  }
}
