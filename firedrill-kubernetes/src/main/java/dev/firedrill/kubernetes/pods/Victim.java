package dev.firedrill.kubernetes.pods;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A pod pod-delete removed, with the workload that should replace it (none for a bare pod).
 *
 * @param round the round that removed it, 1 at injection
 */
record Victim(String name, String uid, Optional<Rollout> workload, int round) {

  Map<String, Object> state() {
    Map<String, Object> state = new LinkedHashMap<>();
    state.put("name", name);
    state.put("uid", uid);
    workload.ifPresent(
        w -> {
          state.put("workload_kind", w.kind());
          state.put("workload_name", w.name());
        });
    state.put("round", round);
    return state;
  }

  static Victim fromState(String namespace, Map<?, ?> state) {
    Object kind = state.get("workload_kind");
    Object name = state.get("workload_name");
    Optional<Rollout> workload =
        kind == null || name == null
            ? Optional.empty()
            : Optional.of(new Rollout(namespace, String.valueOf(kind), String.valueOf(name)));
    Object round = state.get("round");
    return new Victim(
        String.valueOf(state.get("name")),
        String.valueOf(state.get("uid")),
        workload,
        round instanceof Number n ? n.intValue() : 1);
  }
}
