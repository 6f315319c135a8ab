package dev.firedrill.fault;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Contexts on this host's real processes and clock. */
final class Contexts {

  private Contexts() {}

  static FaultContext real(String experimentId, int maxProcesses, int maxWorkers) {
    BlastRadius radius = new BlastRadius(1.0, Duration.ofHours(1), 0.05, maxProcesses, maxWorkers);
    return new FaultContext(
        experimentId,
        radius,
        Duration.ofSeconds(1),
        ProcessTable.system(),
        WorkerLauncher.current(),
        Clock.system());
  }

  /** What a journal gives back: the state through JSON, so numbers may come back as Integer. */
  static Map<String, Object> throughJson(Map<String, Object> state) throws Exception {
    ObjectMapper json = new ObjectMapper();
    return json.readValue(
        json.writeValueAsString(state), new TypeReference<Map<String, Object>>() {});
  }

  /** Every (pid, start) pair a state map names, wherever it sits. */
  static List<ProcessId> processIds(Map<String, Object> state) throws FaultException {
    List<ProcessId> ids = new ArrayList<>();
    for (String key : List.of("targets", "workers")) {
      if (state.get(key) instanceof List<?> list) {
        for (Object item : list) {
          ids.add(ProcessId.fromState(item, key));
        }
      }
    }
    if (state.get("watchdog") != null) {
      ids.add(ProcessId.fromState(state.get("watchdog"), "watchdog"));
    }
    return ids;
  }
}
