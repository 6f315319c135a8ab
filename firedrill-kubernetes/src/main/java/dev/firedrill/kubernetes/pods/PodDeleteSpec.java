package dev.firedrill.kubernetes.pods;

import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.kubernetes.select.PodSelector;
import dev.firedrill.kubernetes.select.Selection;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * pod-delete: deletes (or evicts) pods chosen from a selector's Running pods, once or every {@code
 * interval} for the method's duration. {@code gracePeriod} empty keeps each pod's own, so preStop
 * hooks run.
 */
public record PodDeleteSpec(
    PodSelector selector,
    Selection selection,
    Optional<Duration> gracePeriod,
    Via via,
    Optional<Duration> interval,
    Optional<Duration> ttl)
    implements FaultSpec {

  /** How a pod is removed. */
  public enum Via {
    /** The Eviction API: PodDisruptionBudgets hold, and a pod they protect (429) is skipped. */
    EVICTION,
    /** A plain DELETE, which PodDisruptionBudgets do not stop. */
    DELETE;

    public String text() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public PodDeleteSpec {
    Objects.requireNonNull(selector, "selector");
    Objects.requireNonNull(selection, "selection");
    gracePeriod = gracePeriod == null ? Optional.empty() : gracePeriod;
    via = via == null ? Via.DELETE : via;
    interval = interval == null ? Optional.empty() : interval;
    ttl = ttl == null ? Optional.empty() : ttl;
  }

  @Override
  public String kind() {
    return PodDeleteKind.NAME;
  }

  /** The namespace and the selector: {@code pods app=web in shop}. */
  @Override
  public String target() {
    return "pods " + selector.text();
  }

  /** The namespace, for the gauge's target, Grafana's tags and span attributes. */
  @Override
  public String targetName() {
    return selector.namespace();
  }
}
