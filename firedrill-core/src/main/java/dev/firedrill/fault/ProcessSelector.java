package dev.firedrill.fault;

import dev.firedrill.experiment.FaultSpec;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Chooses the processes a process-kill fault may hit, inside the blast radius. */
final class ProcessSelector {

  private final ProcessTable processes;
  private final long self;

  ProcessSelector(ProcessTable processes, long self) {
    this.processes = processes;
    this.self = self;
  }

  /** The selection in PID order, so the same host state yields the same plan. */
  List<ProcessInfo> select(FaultSpec.ProcessKill spec, int maxProcesses) throws FaultException {
    String match =
        spec.match() == null ? "" : spec.match(); // its length: FaultChecks, before any selection
    List<ProcessInfo> all = processes.list();
    Set<Long> spared = spared(all);
    List<ProcessInfo> matching = new ArrayList<>();
    for (ProcessInfo process : all) {
      if (process.alive()
          && !spared.contains(process.pid())
          && process.commandLine().contains(match)) {
        matching.add(process);
      }
    }
    if (matching.isEmpty()) {
      throw new FaultRefusedException(
          "process-kill: no process matches \""
              + match
              + "\" (firedrill, its parent, its descendants and PID 1 are never hit)"
              + "; a fault that hits nothing proves nothing");
    }
    int count = count(matching.size(), spec);
    if (count > maxProcesses) {
      throw new FaultRefusedException(
          "process-kill: would signal "
              + count
              + " processes matching \""
              + match
              + "\" but blast_radius max_processes is "
              + maxProcesses);
    }
    return List.copyOf(matching.subList(0, count));
  }

  private static int count(int matching, FaultSpec.ProcessKill spec) throws FaultRefusedException {
    if (spec.share().isEmpty()) {
      return matching;
    }
    // Decimal arithmetic: 3 x 0.333 must not round up to 2 through a binary-fraction error.
    int rounded =
        BigDecimal.valueOf(spec.share().get())
            .multiply(BigDecimal.valueOf(matching))
            .setScale(0, RoundingMode.CEILING)
            .intValueExact();
    return Math.max(1, Math.min(rounded, matching));
  }

  /**
   * PID 1, firedrill, its parent (often the shell or CI runner) and everything firedrill started.
   */
  private Set<Long> spared(List<ProcessInfo> all) {
    Set<Long> spared = new HashSet<>();
    spared.add(1L);
    spared.add(self);
    for (ProcessInfo process : all) {
      if (process.pid() == self) {
        spared.add(process.ppid());
      }
    }
    boolean grew = true;
    Set<Long> descendants = new HashSet<>(Set.of(self));
    while (grew) {
      grew = false;
      for (ProcessInfo process : all) {
        if (descendants.contains(process.ppid()) && descendants.add(process.pid())) {
          grew = true;
        }
      }
    }
    spared.addAll(descendants);
    return spared;
  }
}
