package dev.firedrill.engine;

import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultException;
import java.util.Map;

/** Turns fault specs into faults: fresh ones for a drill, restored ones for cleanup. */
public interface FaultProvider {

  Fault create(FaultSpec spec);

  /**
   * The fault at {@code index} in {@code method.faults}; the index names what the fault leaves
   * behind (a proxy toxic's name). Providers that do not care keep this default.
   */
  default Fault create(int index, FaultSpec spec) {
    return create(spec);
  }

  Fault restore(FaultSpec spec, Map<String, Object> state) throws FaultException;
}
