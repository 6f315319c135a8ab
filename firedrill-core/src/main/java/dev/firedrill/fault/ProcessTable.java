package dev.firedrill.fault;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The host's processes. Every signal names a (PID, start time) pair, so a recycled PID is never
 * hit.
 */
public interface ProcessTable {

  /** Every process readable now; processes that vanish during the scan are left out. */
  List<ProcessInfo> list();

  Optional<ProcessInfo> find(long pid);

  /** The process still exists under the same start time and is not a zombie. */
  default Optional<ProcessInfo> find(ProcessId id) {
    return find(id.pid()).filter(p -> p.startTicks() == id.startTicks() && p.alive());
  }

  default boolean alive(ProcessId id) {
    return find(id).isPresent();
  }

  /**
   * Sends {@code signal} if the process still runs under the same start time. Returns false when it
   * is gone (nothing to do), throws when the kernel refuses, for example for lack of permission.
   */
  boolean signal(ProcessId id, Signal signal) throws FaultException;

  static ProcessTable system() {
    return new ProcProcessTable(Path.of("/proc"));
  }
}
