package dev.firedrill.lab.metrics;

/** The classic histogram buckets of every lab latency histogram, in seconds (+Inf is implied). */
public final class LatencyBuckets {

  private static final double[] SECONDS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

  private LatencyBuckets() {}

  public static double[] seconds() {
    return SECONDS.clone();
  }
}
