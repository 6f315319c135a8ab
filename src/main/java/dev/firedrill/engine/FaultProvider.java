package dev.firedrill.engine;

import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultException;
import java.util.Map;

/** Turns fault specs into faults: fresh ones for a drill, restored ones for cleanup. */
public interface FaultProvider {

  Fault create(FaultSpec spec);

  Fault restore(FaultSpec spec, Map<String, Object> state) throws FaultException;
}
