package dev.firedrill.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.ProcessId;
import dev.firedrill.fault.ProcessInfo;
import dev.firedrill.fault.ProcessTable;
import dev.firedrill.fault.Signal;
import java.util.ArrayList;
import java.util.List;

/** The cpu-burn worker processes a test's drills start, found in the journal or in /proc. */
final class Workers {

  private static final ProcessTable PROCESSES = ProcessTable.system();

  private Workers() {}

  /** Every (PID, start time) pair the journal's faults recorded in {@code state.workers}. */
  static List<ProcessId> inJournal(JsonNode journal) {
    List<ProcessId> ids = new ArrayList<>();
    for (JsonNode fault : journal.path("faults")) {
      for (JsonNode worker : fault.path("state").path("workers")) {
        ids.add(new ProcessId(worker.path("pid").asLong(), worker.path("start").asLong()));
      }
    }
    return ids;
  }

  /** The PID still runs under the same start time (so a recycled PID is not mistaken for it). */
  static boolean alive(ProcessId id) {
    return PROCESSES.alive(id);
  }

  /** Live cpu-burn workers started for this experiment id, found by their command line. */
  static List<ProcessInfo> running(String experimentId) {
    return PROCESSES.list().stream()
        .filter(ProcessInfo::alive)
        .filter(p -> p.commandLine().contains("dev.firedrill.fault.CpuBurnWorker"))
        .filter(p -> p.commandLine().endsWith("--experiment " + experimentId))
        .toList();
  }

  /** Safety net for a failed test: no burner outlives it. */
  static void kill(List<ProcessId> ids) {
    for (ProcessId id : ids) {
      try {
        PROCESSES.signal(id, Signal.KILL);
      } catch (FaultException e) {
        System.err.println("could not kill cpu-burn worker " + id + ": " + e.getMessage());
      }
    }
  }
}
