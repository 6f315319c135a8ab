package dev.firedrill.kubernetes.select;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.Node;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads and writes what every Kubernetes fault entry says about its pods:
 *
 * <pre>
 * namespace: shop
 * selector:
 *   labels: {app: web}
 *   expressions: [{key: tier, operator: In, values: [front]}]
 * field_selector: spec.nodeName=node-1
 * mode: fixed-percent
 * value: 34
 * </pre>
 */
public final class PodSelectorReader {

  /** The keys it reads, for a kind's {@link dev.firedrill.fault.FaultKind#keys()}. */
  public static final List<String> KEYS =
      List.of("namespace", "selector", "field_selector", "mode", "value");

  /** An RFC 1123 label, as Kubernetes names namespaces. */
  private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

  /** A label key: an optional DNS prefix and a name. */
  private static final Pattern LABEL_KEY =
      Pattern.compile(
          "([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");

  private static final Pattern LABEL_VALUE =
      Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");

  private PodSelectorReader() {}

  /** The selector of {@code entry}, or null with problems on its nodes; {@code kind} names it. */
  public static PodSelector selector(Node entry, String kind) {
    String namespace =
        entry
            .get("namespace")
            .required(kind + " needs namespace: the namespace of the pods, such as shop")
            .text(NAMESPACE, "expected a namespace name (RFC 1123 label), such as shop");
    Node selector =
        entry
            .get("selector")
            .required(kind + " needs selector: labels of the pods, such as {labels: {app: web}}");
    Map<String, String> labels = new LinkedHashMap<>();
    List<LabelRequirement> expressions = new ArrayList<>();
    Node section = selector.present() ? selector.object() : null;
    if (section != null) {
      Map<String, Node> members = section.get("labels").members();
      for (Map.Entry<String, Node> member :
          members == null ? Map.<String, Node>of().entrySet() : members.entrySet()) {
        if (!LABEL_KEY.matcher(member.getKey()).matches()) {
          member
              .getValue()
              .problem(
                  "expected a label key such as app or app.kubernetes.io/name, got \""
                      + member.getKey()
                      + "\"");
        }
        String text =
            member
                .getValue()
                .text(
                    LABEL_VALUE,
                    "expected a label value: up to 63 letters, digits, '-', '_' and '.'");
        if (text != null) {
          labels.put(member.getKey(), text);
        }
      }
      List<Node> items = section.get("expressions").list();
      for (Node item : items == null ? List.<Node>of() : items) {
        LabelRequirement requirement = expression(item);
        if (requirement != null) {
          expressions.add(requirement);
        }
      }
      section.rejectUnknownKeys(null);
      if (labels.isEmpty() && expressions.isEmpty() && entry.clean()) {
        selector.problem(
            "expected labels or expressions: an empty selector matches every pod in the namespace");
      }
    }
    List<FieldRequirement> fields = new ArrayList<>();
    Node fieldNode = entry.get("field_selector");
    String fieldText = fieldNode.text();
    if (fieldText != null) {
      try {
        fields.addAll(FieldRequirement.parse(fieldText));
      } catch (IllegalArgumentException e) {
        fieldNode.problem(e.getMessage());
      }
    }
    return entry.clean() ? new PodSelector(namespace, labels, expressions, fields) : null;
  }

  private static LabelRequirement expression(Node item) {
    Node node = item.object();
    if (node == null) {
      return null;
    }
    String key =
        node.get("key")
            .required("an expression needs key: a label key")
            .text(LABEL_KEY, "expected a label key such as tier");
    Node operatorNode =
        node.get("operator")
            .required("an expression needs operator: In, NotIn, Exists or DoesNotExist");
    String operatorText =
        operatorNode.choice(
            "operator", LabelRequirement.Operator.names(), PodSelectorReader::operatorName);
    List<String> values = new ArrayList<>();
    List<Node> valueNodes = node.get("values").list();
    for (Node value : valueNodes == null ? List.<Node>of() : valueNodes) {
      String text = value.text(LABEL_VALUE, "expected a label value");
      if (text != null) {
        values.add(text);
      }
    }
    node.rejectUnknownKeys(null);
    if (key == null || operatorText == null || !node.clean()) {
      return null;
    }
    LabelRequirement.Operator operator = LabelRequirement.Operator.of(operatorText);
    if (operator.needsValues() == values.isEmpty()) {
      node.get("values")
          .problem(
              operator.needsValues()
                  ? "operator " + operator.text() + " needs values: a non-empty list"
                  : "operator " + operator.text() + " takes no values");
      return null;
    }
    return new LabelRequirement(key, operator, values);
  }

  /** {@code notin} and {@code NotIn} are both NotIn. */
  private static String operatorName(String text) {
    LabelRequirement.Operator operator = LabelRequirement.Operator.of(text);
    return operator == null ? text : operator.text();
  }

  /**
   * The entry's {@code mode} ({@code one} when absent) and {@code value}, or null with problems.
   */
  public static Selection selection(Node entry) {
    Node modeNode = entry.get("mode");
    String modeText =
        modeNode.present()
            ? modeNode.choice("mode", SelectionMode.names(), String::toLowerCase)
            : "one";
    Node valueNode = entry.get("value");
    if (modeText == null) {
      return null;
    }
    SelectionMode mode = SelectionMode.of(modeText);
    if (!mode.needsValue()) {
      if (valueNode.present()) {
        valueNode.problem("mode " + mode.text() + " takes no value");
      }
      return entry.clean() ? new Selection(mode, 0) : null;
    }
    Integer value =
        mode.percentage()
            ? percentage(
                valueNode.required(
                    "mode " + mode.text() + " needs value: a percentage from 1 to 100"))
            : valueNode.required("mode fixed needs value: how many pods, such as 1").integer(1);
    return value != null && entry.clean() ? new Selection(mode, value) : null;
  }

  private static Integer percentage(Node node) {
    if (!node.present()) {
      return null;
    }
    Integer value = node.percentString() ? null : node.integer(1);
    if (node.percentString() || (value != null && value > 100)) {
      return node.fail(
          "expected a whole percentage from 1 to 100, as Chaos Mesh takes it, such as 34");
    }
    return value;
  }

  /** Writes what {@link #selector} and {@link #selection} read back. */
  public static void write(PodSelector selector, Selection selection, ObjectNode node) {
    node.put("namespace", selector.namespace());
    ObjectNode section = node.putObject("selector");
    if (!selector.labels().isEmpty()) {
      ObjectNode labels = section.putObject("labels");
      selector.labels().entrySet().stream()
          .sorted(Map.Entry.comparingByKey())
          .forEach(e -> labels.put(e.getKey(), e.getValue()));
    }
    if (!selector.expressions().isEmpty()) {
      ArrayNode expressions = section.putArray("expressions");
      for (LabelRequirement requirement : selector.expressions()) {
        ObjectNode item = expressions.addObject();
        item.put("key", requirement.key());
        item.put("operator", requirement.operator().text());
        if (!requirement.values().isEmpty()) {
          ArrayNode values = item.putArray("values");
          requirement.values().forEach(values::add);
        }
      }
    }
    if (!selector.fields().isEmpty()) {
      node.put("field_selector", selector.fieldText());
    }
    node.put("mode", selection.mode().text());
    if (selection.mode().needsValue()) {
      node.put("value", selection.value());
    }
  }
}
