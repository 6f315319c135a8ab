package dev.firedrill.fault;

import dev.firedrill.experiment.FaultSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One injected fault. The engine appends a fault to its started list before {@link #inject()}, so
 * {@link #revert()} must cope with a fault that half-started, and with one that never started.
 */
public interface Fault {

  FaultSpec spec();

  /**
   * The exact actions {@link #inject()} would take, as text, with no side effects (reading {@code
   * /proc} is allowed). Throws {@link FaultRefusedException} when the blast radius forbids it.
   */
  List<String> plan() throws FaultException;

  /** Starts the fault, with its TTL enforced by something that outlives firedrill. */
  void inject() throws FaultException;

  /** Undoes the fault. Idempotent: reverting twice, or reverting what never started, is fine. */
  void revert() throws FaultException;

  /**
   * Checks against the system, not against this object's memory, that nothing of the fault remains.
   */
  Verification verify();

  /** The command a human runs when {@link #revert()} keeps failing. Never contains a secret. */
  String manualRevertCommand();

  /**
   * What {@code firedrill cleanup} needs to revert this fault after firedrill died: plain JSON
   * values (strings, numbers, lists, maps). Recorded in the journal after injection.
   */
  Map<String, Object> state();

  /**
   * What {@link #inject()} will create, as far as it is known before it starts, in {@link
   * #state()}'s shape: the journal records it before the injection, so {@code firedrill cleanup}
   * after a kill mid-inject finds and removes what was created, and only that; an empty map when
   * the revert needs no state at all. Empty (the default) when nothing is known before: cleanup
   * then reports the fault for a human until its ttl has passed.
   */
  default Optional<Map<String, Object>> stateBeforeInjection() {
    return Optional.empty();
  }

  /** What ends this fault at its TTL if firedrill dies. */
  default TtlEnforcer ttlEnforcer() {
    return TtlEnforcer.INJECTOR;
  }

  /**
   * The names of what the fault chose at injection, such as pod names, for {@code {{ targets }}} in
   * queries and for the markers; empty before injection and for a fault that chooses nothing.
   */
  default List<String> selected() {
    return List.of();
  }
}
