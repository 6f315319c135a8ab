package dev.firedrill.fault;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.Node;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** cpu-burn: busy worker processes on this host, each ending by itself after the ttl. */
public final class CpuBurnKind implements FaultKind<FaultSpec.CpuBurn> {

  @Override
  public String name() {
    return "cpu-burn";
  }

  @Override
  public Class<FaultSpec.CpuBurn> specType() {
    return FaultSpec.CpuBurn.class;
  }

  @Override
  public List<String> keys() {
    return List.of("workers");
  }

  @Override
  public FaultSpec.CpuBurn read(Node entry, Optional<Duration> ttl) {
    Integer workers =
        entry
            .get("workers")
            .required("cpu-burn needs workers: how many busy processes to start, at least 1")
            .integer(1);
    return entry.clean() ? new FaultSpec.CpuBurn(workers, ttl) : null;
  }

  @Override
  public void write(FaultSpec.CpuBurn spec, ObjectNode node) {
    node.put("workers", spec.workers());
  }

  @Override
  public void check(FaultSpec.CpuBurn spec, BlastRadius blast) throws FaultRefusedException {
    if (spec.workers() < 1) {
      throw new FaultRefusedException(
          "cpu-burn: workers " + spec.workers() + " is not a count; expected at least 1");
    }
    if (spec.workers() > blast.maxWorkers()) {
      throw new FaultRefusedException(
          "cpu-burn: "
              + spec.workers()
              + " workers exceed blast_radius max_workers "
              + blast.maxWorkers());
    }
  }

  @Override
  public Fault create(FaultSpec.CpuBurn spec, FaultContext context, int index) {
    return new CpuBurnFault(spec, context, CpuBurnFault.tag(context, index));
  }

  @Override
  public Fault restore(FaultSpec.CpuBurn spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    return CpuBurnFault.restore(spec, context, state);
  }
}
