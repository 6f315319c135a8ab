package dev.firedrill.fault;

import dev.firedrill.experiment.FaultSpec;
import java.util.Map;

/** Turns fault specs into faults, fresh for a drill or rebuilt from a journal for cleanup. */
public final class Faults {

  private Faults() {}

  /** The first fault of its experiment. */
  public static Fault create(FaultSpec spec, FaultContext context) {
    return create(spec, context, 0);
  }

  /** {@code index} is the fault's place in {@code method.faults}; it names what the fault leaves behind. */
  public static Fault create(FaultSpec spec, FaultContext context, int index) {
    if (spec instanceof FaultSpec.ProcessKill kill) {
      return new ProcessKillFault(kill, context);
    }
    if (spec instanceof FaultSpec.HttpToxic toxic) {
      return new HttpToxicFault(toxic, context, HttpToxicFault.toxicName(context.experimentId(), index));
    }
    if (spec instanceof FaultSpec.ExporterDown down) {
      return new HttpToxicFault(down, context, HttpToxicFault.toxicName(context.experimentId(), index));
    }
    return new CpuBurnFault((FaultSpec.CpuBurn) spec, context);
  }

  /** Rebuilds a fault from the {@link Fault#state()} a journal recorded, so it can be reverted. */
  public static Fault restore(FaultSpec spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    if (state == null) {
      throw new FaultException(spec.kind() + ": no recorded state; expected the map the journal wrote");
    }
    if (spec instanceof FaultSpec.ProcessKill kill) {
      return ProcessKillFault.restore(kill, context, state);
    }
    if (spec instanceof FaultSpec.HttpToxic toxic) {
      return HttpToxicFault.restore(toxic, context, state);
    }
    if (spec instanceof FaultSpec.ExporterDown down) {
      return HttpToxicFault.restore(down, context, state);
    }
    return CpuBurnFault.restore((FaultSpec.CpuBurn) spec, context, state);
  }
}
