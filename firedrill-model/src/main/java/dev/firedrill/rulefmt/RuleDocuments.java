package dev.firedrill.rulefmt;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.yaml.SourceTree;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the rule groups of a rule file are, for every reader of rule files (the linter, the
 * embedded Prometheus, the simulation): a plain Prometheus rule file ({@code groups:} at the top),
 * Prometheus Operator {@code PrometheusRule} objects ({@code apiVersion: monitoring.coreos.com/v1},
 * {@code spec.groups}), a {@code kind: List} of them (as {@code kubectl get -o yaml} writes), and
 * any number of these as YAML documents separated by {@code ---}. Each holder of {@code groups} is
 * a {@link Part}; the reader reads its groups as it reads a plain file's, with pointers under
 * {@link Part#pointer()}.
 */
public final class RuleDocuments {

  /** YAML only; numbers and booleans kept as written (rule files hold text). */
  public static final SourceTree.Options READING =
      new SourceTree.Options(false, false, SourceTree.Scalars.TEXT, false);

  static final String API_GROUP = "monitoring.coreos.com/";

  /**
   * One holder of {@code groups}: the document's tree, the holder node and its pointer ({@code ""}
   * for a plain file, {@code /spec} for a PrometheusRule, {@code /items/2/spec} inside a List), and
   * what names it: {@code namespace/name} of a PrometheusRule, {@code document N} for a plain
   * document of a file with several, or null for a plain file's only document.
   */
  public record Part<P>(SourceTree<P> tree, JsonNode holder, String pointer, String object) {

    /** How findings name this part: the file, and the object when there is one. */
    public String name(String file) {
      return object == null ? file : file + " (" + object + ")";
    }
  }

  private RuleDocuments() {}

  /**
   * The parts of a file's text; what is wrong with its documents or objects goes to {@code
   * problems} (which also receives duplicate keys and malformed text). An empty file has no parts.
   */
  public static <P> List<Part<P>> read(
      String file, String content, SourceTree.Problems<P> factory, List<P> problems) {
    List<SourceTree<P>> documents = SourceTree.readDocuments(file, content, READING, factory);
    List<Part<P>> parts = new ArrayList<>();
    boolean several = documents.size() > 1;
    for (int d = 0; d < documents.size(); d++) {
      SourceTree<P> tree = documents.get(d);
      problems.addAll(tree.problems());
      JsonNode root = tree.root();
      if (tree.malformed() != null) {
        break;
      }
      if (root == null || root.isNull()) {
        continue; // an empty document, which Prometheus accepts as an empty rule file
      }
      if (!root.isObject()) {
        problems.add(
            tree.problem(
                "",
                "expected a mapping with a groups list, or a PrometheusRule object"
                    + documentSuffix(several, d)));
      } else if (root.has("kind") || root.has("apiVersion")) {
        object(tree, root, "", problems, parts);
      } else {
        parts.add(new Part<>(tree, root, "", several ? "document " + (d + 1) : null));
      }
    }
    return List.copyOf(parts);
  }

  private static String documentSuffix(boolean several, int d) {
    return several ? " (document " + (d + 1) + ")" : "";
  }

  private static <P> void object(
      SourceTree<P> tree, JsonNode node, String at, List<P> problems, List<Part<P>> parts) {
    String kind = node.path("kind").asText("");
    String apiVersion = node.path("apiVersion").asText("");
    if (kind.equals("List") || (kind.endsWith("List") && apiVersion.startsWith(API_GROUP))) {
      JsonNode items = node.get("items");
      if (items == null || items.isNull()) {
        return;
      }
      if (!items.isArray()) {
        problems.add(tree.problem(at + "/items", "expected a list of PrometheusRule objects"));
        return;
      }
      for (int i = 0; i < items.size(); i++) {
        JsonNode item = items.get(i);
        String itemAt = at + "/items/" + i;
        if (!item.isObject()) {
          problems.add(tree.problem(itemAt, "expected a PrometheusRule object"));
        } else {
          object(tree, item, itemAt, problems, parts);
        }
      }
      return;
    }
    if (!kind.equals("PrometheusRule")) {
      problems.add(
          tree.problem(
              at + "/kind",
              "expected kind PrometheusRule (apiVersion "
                  + API_GROUP
                  + "v1) or List, "
                  + (kind.isEmpty() ? "found no kind" : "found " + kind)));
      return;
    }
    if (!apiVersion.startsWith(API_GROUP)) {
      problems.add(
          tree.problem(
              at + "/apiVersion",
              "expected apiVersion "
                  + API_GROUP
                  + "v1 for a PrometheusRule, found "
                  + (apiVersion.isEmpty() ? "none" : apiVersion)));
      return;
    }
    String name = node.path("metadata").path("name").asText("");
    String namespace = node.path("metadata").path("namespace").asText("");
    String object =
        (namespace.isEmpty() ? "" : namespace + "/")
            + (name.isEmpty() ? "(unnamed PrometheusRule)" : name);
    JsonNode spec = node.get("spec");
    if (spec == null || spec.isNull()) {
      return; // no groups: an empty rule file
    }
    if (!spec.isObject()) {
      problems.add(
          tree.problem(
              at + "/spec", "expected the PrometheusRule's spec, a mapping with a groups list"));
      return;
    }
    parts.add(new Part<>(tree, spec, at + "/spec", object));
  }
}
