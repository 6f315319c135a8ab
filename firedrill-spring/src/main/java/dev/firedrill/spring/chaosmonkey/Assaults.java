package dev.firedrill.spring.chaosmonkey;

import java.util.Objects;
import java.util.Optional;

/**
 * The assaults a drill switches on: a latency assault when {@code latency} is present, an exception
 * assault when {@code exception} (a class name the application can load) is present.
 *
 * @param level Chaos Monkey's level: one call in {@code level} is attacked (exactly every {@code
 *     level}th with {@code deterministic}, otherwise at random with that probability)
 */
public record Assaults(
    int level, boolean deterministic, Optional<LatencyRange> latency, Optional<String> exception) {

  /** Chaos Monkey's own bounds on its level. */
  public static final int MAX_LEVEL = 10_000;

  public Assaults {
    if (level < 1 || level > MAX_LEVEL) {
      throw new IllegalArgumentException("level must lie in [1, " + MAX_LEVEL + "]");
    }
    Objects.requireNonNull(latency, "latency");
    Objects.requireNonNull(exception, "exception");
    if (latency.isEmpty() && exception.isEmpty()) {
      throw new IllegalArgumentException("at least one assault must be active");
    }
  }

  /** The share of watched calls attacked: 1 / level. */
  public double share() {
    return 1.0 / level;
  }
}
