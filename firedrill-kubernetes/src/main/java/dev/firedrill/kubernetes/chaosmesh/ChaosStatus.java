package dev.firedrill.kubernetes.chaosmesh;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What firedrill reads of a Chaos Mesh object's status: its conditions (Selected, AllInjected,
 * AllRecovered) and the pods of its records ({@code status.experiment.containerRecords[].id},
 * {@code namespace/pod} or {@code namespace/pod/container}).
 */
final class ChaosStatus {

  /** The finalizer Chaos Mesh holds until every record is recovered. */
  static final String FINALIZER = "chaos-mesh/records";

  private ChaosStatus() {}

  /** The condition's status ({@code True}, {@code False}), empty when absent. */
  static Optional<String> condition(GenericKubernetesResource object, String type) {
    for (Map<?, ?> condition : maps(path(object, "status", "conditions"))) {
      if (type.equals(condition.get("type"))) {
        return Optional.of(String.valueOf(condition.get("status")));
      }
    }
    return Optional.empty();
  }

  static boolean isTrue(GenericKubernetesResource object, String type) {
    return condition(object, type).filter("True"::equals).isPresent();
  }

  /** {@code Selected True, AllInjected False}: the conditions for messages. */
  static String conditions(GenericKubernetesResource object) {
    List<String> shown = new ArrayList<>();
    for (String type : List.of("Selected", "AllInjected", "AllRecovered")) {
      shown.add(type + " " + condition(object, type).orElse("(not set)"));
    }
    return String.join(", ", shown);
  }

  /** The pods of the records, in order, each once. */
  static List<String> recordedPods(GenericKubernetesResource object) {
    Set<String> pods = new LinkedHashSet<>();
    for (Map<?, ?> record : maps(path(object, "status", "experiment", "containerRecords"))) {
      String[] id = String.valueOf(record.get("id")).split("/");
      if (id.length >= 2) {
        pods.add(id[1]);
      }
    }
    return List.copyOf(pods);
  }

  static boolean terminating(GenericKubernetesResource object) {
    return object.getMetadata().getDeletionTimestamp() != null;
  }

  static List<String> finalizers(GenericKubernetesResource object) {
    List<String> finalizers = object.getMetadata().getFinalizers();
    return finalizers == null ? List.of() : List.copyOf(finalizers);
  }

  private static Object path(GenericKubernetesResource object, String... keys) {
    Object at = object.getAdditionalProperties();
    for (String key : keys) {
      if (!(at instanceof Map<?, ?> map)) {
        return null;
      }
      at = map.get(key);
    }
    return at;
  }

  private static List<Map<?, ?>> maps(Object list) {
    List<Map<?, ?>> maps = new ArrayList<>();
    if (list instanceof List<?> items) {
      for (Object item : items) {
        if (item instanceof Map<?, ?> map) {
          maps.add(map);
        }
      }
    }
    return maps;
  }
}
