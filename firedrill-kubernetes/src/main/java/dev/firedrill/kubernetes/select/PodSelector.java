package dev.firedrill.kubernetes.select;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Which pods a fault may touch: one namespace, a label selector (equality labels and set-based
 * expressions) and an optional field selector. The API server is asked with the equality labels
 * only; expressions and fields are applied to the listed pods, so they mean the same on every
 * server (fabric8's mock drops set-based selectors and matches fields by name and namespace only).
 */
public record PodSelector(
    String namespace,
    Map<String, String> labels,
    List<LabelRequirement> expressions,
    List<FieldRequirement> fields) {

  public PodSelector {
    Objects.requireNonNull(namespace, "namespace");
    labels = Map.copyOf(new LinkedHashMap<>(labels));
    expressions = List.copyOf(expressions);
    fields = List.copyOf(fields);
  }

  /** Whether the pod's labels and fields match (its namespace is the list's business). */
  public boolean matches(Pod pod) {
    Map<String, String> podLabels =
        pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
    for (Map.Entry<String, String> label : labels.entrySet()) {
      if (!label.getValue().equals(podLabels.get(label.getKey()))) {
        return false;
      }
    }
    return expressions.stream().allMatch(e -> e.matches(podLabels))
        && fields.stream().allMatch(f -> f.matches(pod));
  }

  /** The label selector as {@code kubectl -l} takes it; empty when it selects every pod. */
  public String labelText() {
    List<String> terms = new ArrayList<>();
    labels.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> terms.add(e.getKey() + "=" + e.getValue()));
    expressions.forEach(e -> terms.add(e.text()));
    return String.join(",", terms);
  }

  /** The field selector as {@code kubectl --field-selector} takes it; empty when none. */
  public String fieldText() {
    return String.join(",", fields.stream().map(FieldRequirement::text).toList());
  }

  /** For messages: {@code app=web in shop}. */
  public String text() {
    String label = labelText();
    String field = fieldText();
    return (label.isEmpty() ? "(all)" : label)
        + (field.isEmpty() ? "" : " with " + field)
        + " in "
        + namespace;
  }
}
