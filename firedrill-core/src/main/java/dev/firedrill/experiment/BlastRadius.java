package dev.firedrill.experiment;

import java.time.Duration;
import java.util.Objects;

/**
 * How much the drill may break: the share of traffic its faults can touch, how long, how much of
 * the error budget, and per-fault-kind limits.
 */
public record BlastRadius(
    double trafficShare,
    Duration maxDuration,
    double budgetCeiling,
    int maxProcesses,
    int maxWorkers) {

  public static final double DEFAULT_BUDGET_CEILING = 0.05;
  public static final int DEFAULT_MAX_PROCESSES = 1;
  public static final int DEFAULT_MAX_WORKERS = 1;

  public BlastRadius {
    Objects.requireNonNull(maxDuration, "maxDuration");
    if (!(trafficShare > 0 && trafficShare <= 1)) {
      throw new IllegalArgumentException("trafficShare must lie in (0, 1]");
    }
  }
}
