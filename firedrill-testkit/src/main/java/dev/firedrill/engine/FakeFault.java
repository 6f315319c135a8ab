package dev.firedrill.engine;

import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.Verification;
import java.util.List;
import java.util.Map;

/** A fault for unit tests of the loop: it records calls into a shared log and fails on request. */
final class FakeFault implements Fault {

  private final FaultSpec spec;
  private final String name;
  private final List<String> log;
  boolean failInject;
  int revertFailures;
  boolean applied;

  FakeFault(String name, List<String> log) {
    this.name = name;
    this.log = log;
    this.spec = new FaultSpec.CpuBurn(1, java.util.Optional.of(java.time.Duration.ofMinutes(30)));
  }

  @Override
  public FaultSpec spec() {
    return spec;
  }

  @Override
  public List<String> plan() {
    return List.of("apply " + name);
  }

  @Override
  public void inject() throws FaultException {
    log.add("inject " + name);
    applied = true; // half-started: the side effect happens before the failure
    if (failInject) {
      throw new FaultException(name + " could not start");
    }
  }

  @Override
  public void revert() throws FaultException {
    log.add("revert " + name);
    if (revertFailures > 0) {
      revertFailures--;
      throw new FaultException(name + " refused to go");
    }
    applied = false;
  }

  @Override
  public Verification verify() {
    return applied ? Verification.remaining(name + " still applied") : Verification.reverted(name + " gone");
  }

  @Override
  public String manualRevertCommand() {
    return "undo " + name;
  }

  @Override
  public Map<String, Object> state() {
    return Map.of("name", name, "applied", applied);
  }
}
