package dev.firedrill.experiment;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How much the drill may break: the share of traffic its faults can touch, how long, how much of
 * the error budget, and per-fault-kind limits.
 *
 * @param namespaces the Kubernetes namespaces faults may touch (an allow-list); empty when the file
 *     names none
 * @param maxPercent the largest share of a selector's live pods a Kubernetes fault may touch, in
 *     (0, 1]; rounds down
 * @param maxPods the most pods a Kubernetes fault may touch
 * @param allowHostNetwork whether network faults may run in the host's own network namespace
 */
public record BlastRadius(
    double trafficShare,
    Duration maxDuration,
    double budgetCeiling,
    int maxProcesses,
    int maxWorkers,
    List<String> namespaces,
    Optional<Double> maxPercent,
    Optional<Integer> maxPods,
    boolean allowHostNetwork) {

  public static final double DEFAULT_BUDGET_CEILING = 0.05;
  public static final int DEFAULT_MAX_PROCESSES = 1;
  public static final int DEFAULT_MAX_WORKERS = 1;

  public BlastRadius {
    Objects.requireNonNull(maxDuration, "maxDuration");
    namespaces = List.copyOf(namespaces);
    Objects.requireNonNull(maxPercent, "maxPercent");
    Objects.requireNonNull(maxPods, "maxPods");
    if (!(trafficShare > 0 && trafficShare <= 1)) {
      throw new IllegalArgumentException("trafficShare must lie in (0, 1]");
    }
  }

  /** Without Kubernetes or network limits: no namespace allowed, not the host's network. */
  public BlastRadius(
      double trafficShare,
      Duration maxDuration,
      double budgetCeiling,
      int maxProcesses,
      int maxWorkers) {
    this(
        trafficShare,
        maxDuration,
        budgetCeiling,
        maxProcesses,
        maxWorkers,
        List.of(),
        Optional.empty(),
        Optional.empty(),
        false);
  }
}
