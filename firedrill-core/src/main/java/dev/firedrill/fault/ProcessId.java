package dev.firedrill.fault;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A process as firedrill names it: the PID plus its start time in clock ticks (field 22 of {@code
 * /proc/PID/stat}). The kernel recycles PIDs, so a PID alone could name a stranger.
 */
public record ProcessId(long pid, long startTicks) {

  public Map<String, Object> toState() {
    Map<String, Object> state = new LinkedHashMap<>();
    state.put("pid", pid);
    state.put("start", startTicks);
    return state;
  }

  public static ProcessId fromState(Object value, String where) throws FaultException {
    Map<String, Object> map = StateValues.map(value, where);
    return new ProcessId(
        StateValues.number(map.get("pid"), where + ".pid"),
        StateValues.number(map.get("start"), where + ".start"));
  }
}
