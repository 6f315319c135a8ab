package dev.firedrill.fault;

import static dev.firedrill.time.Durations.format;

import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.FaultSpec;
import java.time.Duration;

/**
 * The refusals a fault's spec earns from the file alone (its ttl, then its kind's own: its share,
 * its size against the blast radius), with no process table and no network: each fault's plan runs
 * them first, and {@code validate} runs them without building a fault.
 */
public final class FaultChecks {

  private FaultChecks() {}

  /** Returns the ttl, or refuses the first static problem of {@code spec}. */
  public static Duration check(FaultSpec spec, BlastRadius blast, Duration methodDuration)
      throws FaultRefusedException {
    Duration ttl = ttl(spec, blast, methodDuration);
    FaultKinds.installed().check(spec, blast);
    return ttl;
  }

  /**
   * A ttl is required, at least the method's duration and at most the blast radius's max_duration.
   */
  private static Duration ttl(FaultSpec spec, BlastRadius blast, Duration methodDuration)
      throws FaultRefusedException {
    String kind = spec.kind();
    Duration ttl =
        spec.ttl()
            .orElseThrow(
                () ->
                    new FaultRefusedException(
                        kind
                            + ": no ttl; every fault needs a ttl that the injector enforces on its"
                            + " own: add ttl: "
                            + format(suggestedTtl(methodDuration, blast.maxDuration()))
                            + " (at least the method's "
                            + format(methodDuration)
                            + ", at most blast_radius max_duration "
                            + format(blast.maxDuration())
                            + ")"));
    if (ttl.compareTo(methodDuration) < 0) {
      throw new FaultRefusedException(
          kind
              + ": ttl "
              + format(ttl)
              + " is shorter than the method duration "
              + format(methodDuration)
              + "; expected a ttl of at least "
              + format(methodDuration));
    }
    Duration max = blast.maxDuration();
    if (ttl.compareTo(max) > 0) {
      throw new FaultRefusedException(
          kind
              + ": ttl "
              + format(ttl)
              + " is longer than blast_radius max_duration "
              + format(max)
              + "; expected a ttl of at most "
              + format(max));
    }
    return ttl;
  }

  /** Twice the method, as the fixtures do, within blast_radius max_duration. */
  private static Duration suggestedTtl(Duration methodDuration, Duration max) {
    Duration twice = methodDuration.multipliedBy(2);
    return twice.compareTo(max) <= 0
        ? twice
        : methodDuration.compareTo(max) <= 0 ? max : methodDuration;
  }
}
