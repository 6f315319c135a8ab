package dev.firedrill.fault;

import static dev.firedrill.experiment.Durations.format;

import dev.firedrill.experiment.FaultSpec;
import java.time.Duration;

/** The TTL rules every fault's plan obeys. */
final class TtlPolicy {

  private TtlPolicy() {}

  /** Returns the TTL, or refuses a spec whose TTL is missing, shorter than the method, or beyond the blast radius. */
  static Duration check(FaultSpec spec, FaultContext context) throws FaultRefusedException {
    String kind = spec.kind();
    Duration ttl = spec.ttl().orElseThrow(() -> new FaultRefusedException(
        kind + ": no ttl; every fault needs a ttl that the injector enforces on its own"));
    if (ttl.compareTo(context.methodDuration()) < 0) {
      throw new FaultRefusedException(kind + ": ttl " + format(ttl)
          + " is shorter than the method duration " + format(context.methodDuration())
          + "; expected a ttl of at least " + format(context.methodDuration()));
    }
    Duration max = context.blastRadius().maxDuration();
    if (ttl.compareTo(max) > 0) {
      throw new FaultRefusedException(kind + ": ttl " + format(ttl)
          + " is longer than blast_radius max_duration " + format(max)
          + "; expected a ttl of at most " + format(max));
    }
    return ttl;
  }
}
