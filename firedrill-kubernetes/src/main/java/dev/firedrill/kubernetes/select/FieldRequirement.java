package dev.firedrill.kubernetes.select;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * One term of a pod field selector, {@code spec.nodeName=node-1} or {@code status.phase!=Failed}.
 * Applied by firedrill to the listed pods, so it means the same on every API server (a mock matches
 * only name and namespace); only the fields the API server supports for pods are known.
 */
public record FieldRequirement(String field, boolean equal, String value) {

  /** The pod fields the API server accepts in a field selector. */
  public static final List<String> FIELDS =
      List.of(
          "metadata.name",
          "metadata.namespace",
          "spec.nodeName",
          "spec.restartPolicy",
          "spec.schedulerName",
          "spec.serviceAccountName",
          "spec.hostNetwork",
          "status.phase",
          "status.podIP",
          "status.nominatedNodeName");

  public FieldRequirement {
    Objects.requireNonNull(value, "value");
    if (!FIELDS.contains(field)) {
      throw new IllegalArgumentException(
          "unknown pod field " + field + "; expected one of " + String.join(", ", FIELDS));
    }
  }

  /** The terms of {@code text} ({@code a=b,c!=d}); throws naming the term it cannot read. */
  public static List<FieldRequirement> parse(String text) {
    return java.util.Arrays.stream(text.split(","))
        .map(String::strip)
        .map(
            term -> {
              int not = term.indexOf("!=");
              int eq = term.indexOf('=');
              if (eq <= 0) {
                throw new IllegalArgumentException(
                    "expected field=value or field!=value, got \"" + term + "\"");
              }
              boolean equal = not < 0;
              String field = term.substring(0, equal ? eq : not).strip();
              String value =
                  term.substring(equal ? (term.startsWith("==", eq) ? eq + 2 : eq + 1) : not + 2)
                      .strip();
              return new FieldRequirement(field, equal, value);
            })
        .toList();
  }

  public boolean matches(Pod pod) {
    return equal == value.equals(read(pod));
  }

  private String read(Pod pod) {
    Function<Pod, Object> getter =
        switch (field) {
          case "metadata.name" -> p -> p.getMetadata().getName();
          case "metadata.namespace" -> p -> p.getMetadata().getNamespace();
          case "spec.nodeName" -> p -> p.getSpec() == null ? null : p.getSpec().getNodeName();
          case "spec.restartPolicy" ->
              p -> p.getSpec() == null ? null : p.getSpec().getRestartPolicy();
          case "spec.schedulerName" ->
              p -> p.getSpec() == null ? null : p.getSpec().getSchedulerName();
          case "spec.serviceAccountName" ->
              p -> p.getSpec() == null ? null : p.getSpec().getServiceAccountName();
          case "spec.hostNetwork" ->
              p ->
                  p.getSpec() == null
                      ? Boolean.FALSE
                      : Boolean.TRUE.equals(p.getSpec().getHostNetwork());
          case "status.phase" -> p -> p.getStatus() == null ? null : p.getStatus().getPhase();
          case "status.podIP" -> p -> p.getStatus() == null ? null : p.getStatus().getPodIP();
          default -> p -> p.getStatus() == null ? null : p.getStatus().getNominatedNodeName();
        };
    Object found = getter.apply(pod);
    return found == null ? "" : String.valueOf(found);
  }

  public String text() {
    return field + (equal ? "=" : "!=") + value;
  }
}
