package dev.firedrill.fault;

import dev.firedrill.experiment.FaultSpec;
import java.util.Map;

/**
 * Turns fault specs into faults, fresh for a drill or rebuilt from a journal for cleanup, by their
 * kind.
 */
public final class Faults {

  private Faults() {}

  /** The first fault of its experiment. */
  public static Fault create(FaultSpec spec, FaultContext context) {
    return create(spec, context, 0);
  }

  /**
   * {@code index} is the fault's place in {@code method.faults}; it names what the fault leaves
   * behind.
   */
  public static Fault create(FaultSpec spec, FaultContext context, int index) {
    return FaultKinds.installed().create(spec, context, index);
  }

  /** Rebuilds a fault from the {@link Fault#state()} a journal recorded, so it can be reverted. */
  public static Fault restore(FaultSpec spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    return FaultKinds.installed().restore(spec, context, state);
  }
}
