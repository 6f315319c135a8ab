package dev.firedrill.testing;

import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.TtlEnforcer;
import dev.firedrill.fault.Verification;
import java.util.List;
import java.util.Map;

/**
 * A fault that is a flag with no side effect: on after inject, off after revert. It writes {@code
 * inject NAME} and {@code revert NAME} into its drill's log, and fails on request.
 */
public final class ScriptedFault implements Fault {

  private final String name;
  private final FaultSpec spec;
  private final List<String> log;
  private volatile boolean applied;
  private boolean failInject;
  private int revertFailures;
  private List<String> selects = List.of();
  private volatile List<String> selected = List.of();
  private TtlEnforcer enforcer = TtlEnforcer.INJECTOR;
  private String planRefusal;
  private String unrecovered;

  ScriptedFault(String name, FaultSpec spec, List<String> log) {
    this.name = name;
    this.spec = spec;
    this.log = log;
  }

  /**
   * Inject turns the flag on and then fails with {@code NAME could not start}: a half-started
   * fault.
   */
  public ScriptedFault failsToInject() {
    failInject = true;
    return this;
  }

  /** The next {@code times} reverts fail with {@code NAME refused to go} and leave the flag on. */
  public ScriptedFault failsToRevert(int times) {
    revertFailures = times;
    return this;
  }

  /** Its plan is refused with {@code message}, as a fault's checks refuse it on this host. */
  public ScriptedFault refusesToPlan(String message) {
    planRefusal = message;
    return this;
  }

  /**
   * Once reverted, nothing is left to undo but its targets are not back, as after a pod delete
   * whose replacement never became Ready: {@code detail} says what was seen.
   */
  public ScriptedFault leavesItsTargetsDown(String detail) {
    unrecovered = detail;
    return this;
  }

  /** Its ttl is the watchdog's to enforce, as a STOP's or a command's is. */
  public ScriptedFault heldByTheWatchdog() {
    enforcer = TtlEnforcer.WATCHDOG;
    return this;
  }

  @Override
  public TtlEnforcer ttlEnforcer() {
    return enforcer;
  }

  /**
   * Inject selects {@code names}, as a Kubernetes fault selects pods: {@link #selected()} reports
   * them from then on.
   */
  public ScriptedFault selects(String... names) {
    selects = List.of(names);
    return this;
  }

  @Override
  public List<String> selected() {
    return selected;
  }

  /** Whether the fault is on. */
  public boolean applied() {
    return applied;
  }

  @Override
  public FaultSpec spec() {
    return spec;
  }

  @Override
  public List<String> plan() throws FaultException {
    if (planRefusal != null) {
      throw new FaultException(planRefusal);
    }
    return List.of("apply " + name);
  }

  @Override
  public void inject() throws FaultException {
    log.add("inject " + name);
    applied = true;
    selected = selects;
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
    if (applied) {
      return Verification.remaining(name + " still applied");
    }
    return unrecovered == null
        ? Verification.reverted(name + " gone")
        : Verification.unrecovered(unrecovered);
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
