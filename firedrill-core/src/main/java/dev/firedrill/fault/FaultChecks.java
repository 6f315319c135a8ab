package dev.firedrill.fault;

import static dev.firedrill.time.Durations.format;

import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.Numbers;
import dev.firedrill.experiment.Shares;
import java.time.Duration;

/**
 * The refusals a fault's spec earns from the file alone (its ttl, its share, its size against the
 * blast radius), with no process table and no network: each fault's plan runs them first, and
 * {@code validate} runs them without building a fault.
 */
public final class FaultChecks {

  /** A process-kill match shorter than this could hit half the host. */
  static final int MIN_MATCH = 4;

  private FaultChecks() {}

  /** Returns the ttl, or refuses the first static problem of {@code spec}. */
  public static Duration check(FaultSpec spec, BlastRadius blast, Duration methodDuration)
      throws FaultRefusedException {
    Duration ttl = ttl(spec, blast, methodDuration);
    if (spec instanceof FaultSpec.HttpToxic toxic) {
      double allowed = blast.trafficShare();
      if (toxic.share() > allowed) {
        throw new FaultRefusedException(spec.kind() + ": share " + Shares.words(toxic.share())
            + " of requests exceeds blast_radius traffic_share " + Shares.words(allowed)
            + "; expected a share of at most " + Numbers.format(allowed) + " (\"" + Shares.words(allowed) + "\")");
      }
    } else if (spec instanceof FaultSpec.CpuBurn burn) {
      if (burn.workers() < 1) {
        throw new FaultRefusedException("cpu-burn: workers " + burn.workers() + " is not a count; expected at least 1");
      }
      if (burn.workers() > blast.maxWorkers()) {
        throw new FaultRefusedException("cpu-burn: " + burn.workers() + " workers exceed blast_radius max_workers "
            + blast.maxWorkers());
      }
    } else if (spec instanceof FaultSpec.ProcessKill kill) {
      String match = kill.match() == null ? "" : kill.match();
      if (match.strip().length() < MIN_MATCH) {
        throw new FaultRefusedException("process-kill: match \"" + match + "\" is " + match.strip().length()
            + " characters; expected at least " + MIN_MATCH + " so it cannot hit half the host");
      }
    }
    return ttl;
  }

  /** A ttl is required, at least the method's duration and at most the blast radius's max_duration. */
  private static Duration ttl(FaultSpec spec, BlastRadius blast, Duration methodDuration)
      throws FaultRefusedException {
    String kind = spec.kind();
    Duration ttl = spec.ttl().orElseThrow(() -> new FaultRefusedException(
        kind + ": no ttl; every fault needs a ttl that the injector enforces on its own"));
    if (ttl.compareTo(methodDuration) < 0) {
      throw new FaultRefusedException(kind + ": ttl " + format(ttl)
          + " is shorter than the method duration " + format(methodDuration)
          + "; expected a ttl of at least " + format(methodDuration));
    }
    Duration max = blast.maxDuration();
    if (ttl.compareTo(max) > 0) {
      throw new FaultRefusedException(kind + ": ttl " + format(ttl)
          + " is longer than blast_radius max_duration " + format(max)
          + "; expected a ttl of at most " + format(max));
    }
    return ttl;
  }
}
