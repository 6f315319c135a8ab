package dev.firedrill.simulate;

import java.time.Duration;
import java.util.Objects;

/**
 * One simulated service: the share of requests it fails by itself (answered 500) and how long it
 * takes to answer, {@code latency} plus or minus up to {@code jitter}.
 */
public record ServiceModel(String name, double errorRatio, Duration latency, Duration jitter) {

  public ServiceModel {
    Objects.requireNonNull(name, "name");
    if (!(errorRatio >= 0 && errorRatio <= 1)) {
      throw new IllegalArgumentException(name + " error ratio " + errorRatio + " is outside 0..1");
    }
    if (latency.isNegative() || jitter.isNegative()) {
      throw new IllegalArgumentException(
          name + " latency " + latency + " or jitter " + jitter + " is negative");
    }
  }

  public Latency distribution() {
    return Latency.uniform(latency, jitter);
  }

  public ServiceModel withErrorRatio(double value) {
    return new ServiceModel(name, value, latency, jitter);
  }

  public ServiceModel withLatency(Duration value) {
    return new ServiceModel(name, errorRatio, value, jitter);
  }
}
