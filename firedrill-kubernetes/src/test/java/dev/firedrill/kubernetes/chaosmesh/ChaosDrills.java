package dev.firedrill.kubernetes.chaosmesh;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.ProcessTable;
import dev.firedrill.fault.WorkerLauncher;
import dev.firedrill.time.Clock;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Chaos Mesh objects, specs and faults for the tests: pods app=web in namespace shop. */
final class ChaosDrills {

  static final Duration TTL = Duration.ofMinutes(1);

  private ChaosDrills() {}

  static ObjectNode yaml(String text) {
    try {
      return (ObjectNode) new YAMLMapper().readTree(text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A NetworkChaos delay on one pod, with {@code duration} (null: none). */
  static ObjectNode networkChaos(String duration) {
    return yaml(
        "apiVersion: chaos-mesh.org/v1alpha1\nkind: NetworkChaos\nmetadata:\n  name: web-delay\n"
            + "  namespace: shop\nspec:\n  action: delay\n  mode: one\n  selector:\n"
            + "    namespaces: [shop]\n    labelSelectors:\n      app: web\n  delay:\n"
            + "    latency: 200ms\n"
            + (duration == null ? "" : "  duration: " + duration + "\n"));
  }

  static ChaosMeshSpec spec(ObjectNode object, Duration injectTimeout, Duration deleteTimeout) {
    ChaosObjectReader.Parts parts =
        ChaosObjectReader.read(
            object,
            (pointer, message) -> {
              throw new IllegalArgumentException(pointer + ": " + message);
            });
    return new ChaosMeshSpec(
        object,
        parts.kind().kind(),
        parts.namespace(),
        parts.action(),
        parts.selector(),
        parts.selection(),
        parts.duration(),
        injectTimeout,
        deleteTimeout,
        Optional.of(TTL));
  }

  static BlastRadius blast(Double maxPercent, Integer maxPods) {
    return new BlastRadius(
        1.0,
        Duration.ofMinutes(5),
        0.05,
        1,
        1,
        List.of("shop"),
        Optional.ofNullable(maxPercent),
        Optional.ofNullable(maxPods),
        false);
  }

  static FaultContext context(Path kubeconfig, BlastRadius blast) {
    return new FaultContext(
        "exp-1",
        blast,
        Duration.ofSeconds(1),
        ProcessTable.system(),
        WorkerLauncher.current(),
        Clock.system(),
        Map.of("KUBECONFIG", kubeconfig.toString()),
        Optional.empty(),
        Duration.ofSeconds(5),
        true);
  }

  static ChaosMeshFault fault(
      Path kubeconfig, ObjectNode object, Double maxPercent, Integer maxPods) {
    return fault(
        kubeconfig, object, maxPercent, maxPods, Duration.ofSeconds(3), Duration.ofSeconds(3));
  }

  static ChaosMeshFault fault(
      Path kubeconfig,
      ObjectNode object,
      Double maxPercent,
      Integer maxPods,
      Duration injectTimeout,
      Duration deleteTimeout) {
    return new ChaosMeshFault(
        spec(object, injectTimeout, deleteTimeout),
        context(kubeconfig, blast(maxPercent, maxPods)),
        0);
  }

  /** A PodChaos pod-kill of one pod, as the seed's fixture has it, with a duration. */
  static ObjectNode podKill() {
    return yaml(
        "apiVersion: chaos-mesh.org/v1alpha1\nkind: PodChaos\nmetadata:\n  name: web-kill\n"
            + "  namespace: shop\nspec:\n  action: pod-kill\n  mode: one\n  gracePeriod: 15\n"
            + "  duration: 30s\n  selector:\n    namespaces: [shop]\n    labelSelectors:\n"
            + "      app: web\n");
  }
}
