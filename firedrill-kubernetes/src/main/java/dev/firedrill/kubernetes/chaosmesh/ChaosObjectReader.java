package dev.firedrill.kubernetes.chaosmesh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.kubernetes.select.LabelRequirement;
import dev.firedrill.kubernetes.select.Selection;
import dev.firedrill.kubernetes.select.SelectionMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads what firedrill needs of a Chaos Mesh object: its kind, namespace, action, selector, mode
 * and duration. Problems go to {@link Where} with the JSON pointer inside the object, so an inline
 * object's problem names its place in the experiment and a manifest's names the file.
 */
final class ChaosObjectReader {

  /** Where a problem at a pointer inside the object is reported. */
  interface Where {
    void problem(String pointer, String message);
  }

  /** What the object says, read. */
  record Parts(
      ChaosKind kind,
      String namespace,
      String action,
      ChaosSelector selector,
      Selection selection,
      Optional<Duration> duration) {}

  private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

  /** Selector keys Chaos Mesh knows and firedrill cannot count pods by. */
  private static final List<String> UNCOUNTED =
      List.of(
          "pods",
          "nodes",
          "nodeSelectors",
          "fieldSelectors",
          "annotationSelectors",
          "podPhaseSelectors");

  private ChaosObjectReader() {}

  /** The parts of {@code object}, or null after reporting what is wrong. */
  static Parts read(JsonNode object, Where where) {
    if (object == null || !object.isObject()) {
      where.problem(
          "", "expected a Chaos Mesh object: a mapping with apiVersion, kind, metadata and spec");
      return null;
    }
    boolean ok = true;
    String apiVersion = object.path("apiVersion").asText("");
    if (!ChaosKind.API_VERSION.equals(apiVersion)) {
      where.problem(
          "/apiVersion",
          "expected apiVersion " + ChaosKind.API_VERSION + ", got \"" + apiVersion + "\"");
      ok = false;
    }
    String kindText = object.path("kind").asText("");
    Optional<ChaosKind> kind = ChaosKind.of(kindText);
    if (kind.isEmpty()) {
      where.problem(
          "/kind",
          "expected a Chaos Mesh kind: one of "
              + String.join(", ", ChaosKind.names())
              + ", got \""
              + kindText
              + "\"");
      ok = false;
    }
    String namespace = object.path("metadata").path("namespace").asText("");
    if (!NAMESPACE.matcher(namespace).matches()) {
      where.problem(
          "/metadata/namespace",
          namespace.isEmpty()
              ? "missing; the namespace the object is created in, such as shop"
              : "expected a namespace name (RFC 1123 label), got \"" + namespace + "\"");
      ok = false;
    }
    JsonNode spec = object.path("spec");
    if (!spec.isObject()) {
      where.problem("/spec", "missing; a Chaos Mesh object needs spec with selector and mode");
      return null;
    }
    String action = spec.path("action").asText("");
    if (action.isEmpty()
        && kind.filter(
                k ->
                    k == ChaosKind.POD_CHAOS
                        || k == ChaosKind.NETWORK_CHAOS
                        || k == ChaosKind.IO_CHAOS
                        || k == ChaosKind.HTTP_CHAOS)
            .isPresent()) {
      where.problem(
          "/spec/action",
          "missing; " + kindText + " needs an action, such as " + example(kind.get()));
      ok = false;
    }
    Optional<Duration> duration = Optional.empty();
    JsonNode durationNode = spec.get("duration");
    if (durationNode != null && !durationNode.isNull()) {
      Duration parsed = durationNode.isTextual() ? GoDuration.parse(durationNode.asText()) : null;
      if (parsed == null || parsed.isZero()) {
        where.problem(
            "/spec/duration",
            "expected a duration as Chaos Mesh takes it (Go's), such as 60s, 1m30s or 1.5h, got "
                + durationNode);
        ok = false;
      } else {
        duration = Optional.of(parsed);
      }
    }
    Selection selection = selection(spec, where);
    ChaosSelector selector = selector(spec.path("selector"), namespace, where);
    if (!ok || selection == null || selector == null) {
      return null;
    }
    return new Parts(
        kind.get(), namespace, action.isEmpty() ? "(none)" : action, selector, selection, duration);
  }

  private static String example(ChaosKind kind) {
    return switch (kind) {
      case POD_CHAOS -> "pod-kill, pod-failure or container-kill";
      case NETWORK_CHAOS -> "netem, delay, loss or partition";
      case IO_CHAOS -> "latency or fault";
      default -> "delay or abort";
    };
  }

  private static Selection selection(JsonNode spec, Where where) {
    String modeText = spec.path("mode").asText("");
    if (!SelectionMode.names().contains(modeText)) {
      where.problem(
          "/spec/mode",
          (modeText.isEmpty()
                  ? "missing; expected "
                  : "unknown mode \"" + modeText + "\"; expected ")
              + "one of: "
              + String.join(", ", SelectionMode.names()));
      return null;
    }
    SelectionMode mode = SelectionMode.of(modeText);
    JsonNode valueNode = spec.get("value");
    if (!mode.needsValue()) {
      return new Selection(mode, 0);
    }
    // Chaos Mesh writes value as a string ("1", "34"); a number is taken too.
    String text = valueNode == null || valueNode.isNull() ? "" : valueNode.asText().strip();
    int value;
    try {
      value = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      value = -1;
    }
    int max = mode.percentage() ? 100 : Integer.MAX_VALUE;
    if (value < 1 || value > max) {
      where.problem(
          "/spec/value",
          (text.isEmpty() ? "missing; " : "got \"" + text + "\"; ")
              + "mode "
              + mode.text()
              + (mode.percentage()
                  ? " needs value: a whole percentage from 1 to 100, such as \"34\""
                  : " needs value: how many pods, such as \"1\""));
      return null;
    }
    return new Selection(mode, value);
  }

  private static ChaosSelector selector(JsonNode selector, String namespace, Where where) {
    if (!selector.isObject()) {
      where.problem(
          "/spec/selector",
          "missing; expected a selector with labelSelectors, such as {labelSelectors: {app: web}}");
      return null;
    }
    boolean ok = true;
    for (String key : UNCOUNTED) {
      if (selector.has(key)) {
        where.problem(
            "/spec/selector/" + key,
            "firedrill cannot count the pods this selects, so it cannot check the blast radius;"
                + " select by namespaces, labelSelectors and expressionSelectors");
        ok = false;
      }
    }
    List<String> namespaces = new ArrayList<>();
    JsonNode listed = selector.path("namespaces");
    if (listed.isArray() && !listed.isEmpty()) {
      for (JsonNode item : listed) {
        if (!item.isTextual() || !NAMESPACE.matcher(item.asText()).matches()) {
          where.problem("/spec/selector/namespaces", "expected namespace names, got " + item);
          ok = false;
        } else {
          namespaces.add(item.asText());
        }
      }
    } else if (!listed.isMissingNode()) {
      where.problem(
          "/spec/selector/namespaces", "expected a list of namespace names, such as [shop]");
      ok = false;
    } else if (!namespace.isEmpty()) {
      namespaces.add(namespace); // Chaos Mesh's default: the object's own namespace
    }
    Map<String, String> labels = new LinkedHashMap<>();
    JsonNode labelNode = selector.path("labelSelectors");
    for (Map.Entry<String, JsonNode> label : labelNode.properties()) {
      if (!label.getValue().isValueNode()) {
        where.problem("/spec/selector/labelSelectors/" + label.getKey(), "expected a label value");
        ok = false;
      } else {
        labels.put(label.getKey(), label.getValue().asText());
      }
    }
    List<LabelRequirement> expressions = new ArrayList<>();
    JsonNode expressionNode = selector.path("expressionSelectors");
    int index = 0;
    for (JsonNode item : expressionNode) {
      String pointer = "/spec/selector/expressionSelectors/" + index++;
      LabelRequirement.Operator operator =
          LabelRequirement.Operator.of(item.path("operator").asText(""));
      List<String> values = new ArrayList<>();
      item.path("values").forEach(v -> values.add(v.asText()));
      String key = item.path("key").asText("");
      if (key.isEmpty() || operator == null || operator.needsValues() == values.isEmpty()) {
        where.problem(
            pointer,
            "expected {key, operator, values} with operator In, NotIn (with values), Exists or"
                + " DoesNotExist (without)");
        ok = false;
      } else {
        expressions.add(new LabelRequirement(key, operator, values));
      }
    }
    if (ok && labels.isEmpty() && expressions.isEmpty()) {
      where.problem(
          "/spec/selector",
          "expected labelSelectors or expressionSelectors: a selector without them matches every pod"
              + " in the namespace");
      ok = false;
    }
    return ok && !namespaces.isEmpty() ? new ChaosSelector(namespaces, labels, expressions) : null;
  }

  /**
   * The object firedrill creates: named {@code name}, labelled, with everything else as written.
   */
  static ObjectNode named(ObjectNode object, String name, Map<String, String> labels) {
    ObjectNode created = object.deepCopy();
    ObjectNode metadata = created.withObjectProperty("metadata");
    metadata.put("name", name);
    metadata.remove("generateName");
    metadata.remove("resourceVersion");
    metadata.remove("uid");
    ObjectNode labelNode = metadata.withObjectProperty("labels");
    labels.forEach(labelNode::put);
    created.remove("status");
    return created;
  }
}
