package dev.firedrill.simulate;

import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.Verification;
import dev.firedrill.time.Clock;
import java.util.List;
import java.util.Map;

/** A fault that changes the model instead of the system: on at injection, off at the rollback. */
final class SimulatedFault implements Fault {

  private final FaultSpec spec;
  private final LabMetrics metrics;
  private final Clock clock;
  private Effect effect;

  SimulatedFault(FaultSpec spec, LabMetrics metrics, Clock clock) {
    this.spec = spec;
    this.metrics = metrics;
    this.clock = clock;
  }

  @Override
  public FaultSpec spec() {
    return spec;
  }

  @Override
  public List<String> plan() throws FaultException {
    return List.of(
        "simulated: "
            + FaultEffects.of(spec).text()
            + " ("
            + spec.kind()
            + " on "
            + spec.target()
            + "); nothing outside this process is touched");
  }

  @Override
  public void inject() throws FaultException {
    effect = FaultEffects.of(spec);
    metrics.start(effect, clock.now());
  }

  @Override
  public void revert() {
    if (effect != null) {
      metrics.stop(effect, clock.now());
    }
  }

  @Override
  public Verification verify() {
    return effect == null || !metrics.effects().contains(effect)
        ? Verification.reverted("the model no longer has it")
        : Verification.remaining("the model still has " + effect);
  }

  @Override
  public String manualRevertCommand() {
    return "nothing to do: a simulated fault lives in the simulating process only";
  }

  @Override
  public Map<String, Object> state() {
    return Map.of("simulated", true);
  }
}
