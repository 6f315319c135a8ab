package dev.firedrill.kubernetes.pods;

import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.ProcessTable;
import dev.firedrill.fault.WorkerLauncher;
import dev.firedrill.kubernetes.select.PodSelector;
import dev.firedrill.kubernetes.select.Selection;
import dev.firedrill.kubernetes.select.SelectionMode;
import dev.firedrill.time.Clock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Specs and contexts for pod-delete's tests: namespace shop, pods app=web. */
final class Drills {

  static final PodSelector WEB =
      new PodSelector("shop", Map.of("app", "web"), List.of(), List.of());

  private Drills() {}

  static BlastRadius blast(List<String> namespaces, Double maxPercent, Integer maxPods) {
    return new BlastRadius(
        1.0,
        Duration.ofMinutes(5),
        0.05,
        1,
        1,
        namespaces,
        Optional.ofNullable(maxPercent),
        Optional.ofNullable(maxPods),
        false);
  }

  static PodDeleteSpec spec(
      PodSelector selector,
      SelectionMode mode,
      int value,
      PodDeleteSpec.Via via,
      Duration interval) {
    return new PodDeleteSpec(
        selector,
        new Selection(mode, value),
        Optional.empty(),
        via,
        Optional.ofNullable(interval),
        Optional.of(Duration.ofMinutes(1)));
  }

  static FaultContext context(
      Path kubeconfig, BlastRadius blast, Duration method, Duration recovery) {
    return new FaultContext(
        "exp-1",
        blast,
        method,
        ProcessTable.system(),
        WorkerLauncher.current(),
        Clock.system(),
        Map.of("KUBECONFIG", kubeconfig.toString()),
        Optional.empty(),
        recovery,
        true);
  }
}
