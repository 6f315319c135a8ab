package dev.firedrill.rulefmt;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.time.Durations;
import dev.firedrill.yaml.SourceTree;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one reader of Prometheus rule files' structure, for the embedded Prometheus, {@code rules
 * lint} and {@code simulate}: the holders of groups ({@link RuleDocuments}: plain files,
 * PrometheusRule objects, Lists, documents), each group's keys ({@code name}, {@code interval},
 * {@code query_offset}, {@code limit}, {@code labels}, {@code rules}), each rule's keys ({@code
 * record}/{@code alert}, {@code expr}, {@code for}, {@code keep_firing_for}, {@code labels}, {@code
 * annotations}) and their types, in Prometheus's words where Prometheus has some ({@code group "g",
 * rule 2, "name": only one of 'record' and 'alert' must be set}). Every problem is collected; a
 * {@link Strictness} says which keys are taken, and a caller that runs the rules turns the problems
 * into an error. What a reader does with a rule's expression and names is its {@link Rules}, called
 * as each rule is read so the problems stay in file order.
 */
public final class RuleFileReader {

  /**
   * Which group keys are taken; rule keys are Prometheus's in both (the engine evaluates all of
   * them).
   */
  public enum Strictness {
    /** Every key Prometheus 3 reads: a linter reads files it does not run. */
    PROMETHEUS(List.of("name", "interval", "limit", "rules", "query_offset", "labels")),
    /**
     * The keys the embedded Prometheus (a v2.42) evaluates: a group's {@code query_offset} and
     * {@code labels} (Prometheus 2.53 and 3.0) are refused by name rather than ignored, since a
     * drill on the engine would otherwise differ from one on the real Prometheus without a word.
     */
    EMBEDDED(List.of("name", "interval", "limit", "rules"));

    private final List<String> groupKeys;

    Strictness(List<String> groupKeys) {
      this.groupKeys = groupKeys;
    }

    public List<String> groupKeys() {
      return groupKeys;
    }
  }

  private static final List<String> FILE_KEYS = List.of("groups");
  private static final List<String> RULE_KEYS =
      List.of("record", "alert", "expr", "for", "keep_firing_for", "labels", "annotations");

  /**
   * A group as written: {@code interval} and {@code queryOffset} null without one (the global
   * evaluation interval and rule_query_offset then apply); {@code limit} 0 without one; {@code
   * labels} (Prometheus 3: added to every rule's) empty without them.
   */
  public record Group(
      String name, Duration interval, Duration queryOffset, int limit, Map<String, String> labels) {

    public Group {
      labels = Map.copyOf(labels);
    }
  }

  /**
   * A rule whose structure is sound: {@code alert} or a recording rule, its name, its expression as
   * written; {@code forDuration} and {@code keepFiringFor} null when absent; where it is.
   */
  public record Rule(
      String group,
      int index,
      boolean alert,
      String name,
      String expr,
      Duration forDuration,
      Duration keepFiringFor,
      Map<String, String> labels,
      Map<String, String> annotations,
      String pointer,
      int line) {

    /** Prometheus's prefix for a problem of this rule: {@code group "g", rule 2, "name": }. */
    public String prefix() {
      return prefix(group, index, name);
    }

    static String prefix(String group, int index, String name) {
      return "group \"" + group + "\", rule " + index + ", \"" + name + "\": ";
    }
  }

  /**
   * What a reader makes of rules and groups; problems it finds go to {@code problems}, made by
   * {@code tree}.
   */
  public interface Rules<P, G, R> {
    /** The reader's rule, or null when it is unusable. */
    R rule(Rule rule, SourceTree<P> tree, List<P> problems);

    G group(Group group, List<R> rules);
  }

  /** One holder's groups, and whether it had no problem at all. */
  public record Holder<G>(RuleDocuments.Part<?> part, List<G> groups, boolean clean) {}

  private RuleFileReader() {}

  /**
   * Every holder of groups in {@code content}, in order; every problem goes to {@code problems}.
   */
  public static <P, G, R> List<Holder<G>> read(
      String file,
      String content,
      SourceTree.Problems<P> factory,
      List<P> problems,
      Strictness strictness,
      Rules<P, G, R> rules) {
    List<Holder<G>> holders = new ArrayList<>();
    for (RuleDocuments.Part<P> part : RuleDocuments.read(file, content, factory, problems)) {
      int before = problems.size();
      List<G> groups = groups(part, problems, strictness.groupKeys(), rules);
      holders.add(new Holder<>(part, groups, problems.size() == before));
    }
    return holders;
  }

  private static <P, G, R> List<G> groups(
      RuleDocuments.Part<P> part, List<P> problems, List<String> groupKeys, Rules<P, G, R> reader) {
    SourceTree<P> tree = part.tree();
    String base = part.pointer();
    unknownKeys(tree, part.holder(), base, FILE_KEYS, problems);
    JsonNode groupsNode = part.holder().get("groups");
    if (groupsNode == null || groupsNode.isNull()) {
      return List.of();
    }
    if (!groupsNode.isArray()) {
      problems.add(tree.problem(base + "/groups", "expected a list of rule groups"));
      return List.of();
    }
    String scope =
        part.object() == null
            ? "file"
            : part.object().startsWith("document ") ? "document" : "PrometheusRule";
    List<G> groups = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int g = 0; g < groupsNode.size(); g++) {
      String at = base + "/groups/" + g;
      JsonNode node = groupsNode.get(g);
      if (!node.isObject()) {
        problems.add(tree.problem(at, "expected a rule group with name and rules"));
        continue;
      }
      unknownKeys(tree, node, at, groupKeys, problems);
      String name = text(tree, node, at, "name", problems);
      if (name == null || name.isEmpty()) {
        problems.add(tree.problem(at, "Groupname must not be empty"));
        name = "";
      } else if (!names.add(name)) {
        problems.add(
            tree.problem(
                at + "/name", "groupname: \"" + name + "\" is repeated in the same " + scope));
      }
      Duration interval = duration(tree, node, at, "interval", problems);
      // A key the strictness refuses was reported above; reading it too would report it twice.
      Duration queryOffset =
          groupKeys.contains("query_offset")
              ? duration(tree, node, at, "query_offset", problems)
              : null;
      Map<String, String> labels =
          groupKeys.contains("labels") ? groupLabels(tree, node, at, problems) : Map.of();
      int limit = limit(tree, node, at, problems);
      JsonNode rulesNode = node.get("rules");
      List<R> rules = new ArrayList<>();
      if (rulesNode != null && !rulesNode.isNull() && !rulesNode.isArray()) {
        problems.add(tree.problem(at + "/rules", "expected a list of rules"));
      } else if (rulesNode != null && rulesNode.isArray()) {
        for (int r = 0; r < rulesNode.size(); r++) {
          R rule = rule(tree, rulesNode.get(r), at + "/rules/" + r, name, r + 1, problems, reader);
          if (rule != null) {
            rules.add(rule);
          }
        }
      }
      groups.add(reader.group(new Group(name, interval, queryOffset, limit, labels), rules));
    }
    return groups;
  }

  private static <P, G, R> R rule(
      SourceTree<P> tree,
      JsonNode node,
      String at,
      String group,
      int index,
      List<P> problems,
      Rules<P, G, R> reader) {
    if (!node.isObject()) {
      problems.add(tree.problem(at, "expected a rule with alert or record, and expr"));
      return null;
    }
    int before = problems.size();
    unknownKeys(tree, node, at, RULE_KEYS, problems);
    String alert = text(tree, node, at, "alert", problems);
    String record = text(tree, node, at, "record", problems);
    String expr = text(tree, node, at, "expr", problems);
    Duration forDuration = duration(tree, node, at, "for", problems);
    Duration keepFiringFor = duration(tree, node, at, "keep_firing_for", problems);
    Map<String, String> labels = map(tree, node, at, "labels", problems);
    Map<String, String> annotations = map(tree, node, at, "annotations", problems);
    boolean isAlert = alert != null && !alert.isEmpty();
    boolean isRecord = record != null && !record.isEmpty();
    String name = isAlert ? alert : isRecord ? record : "";
    String prefix = Rule.prefix(group, index, name);
    if (isAlert && isRecord) {
      problems.add(
          tree.problem(at + "/record", prefix + "only one of 'record' and 'alert' must be set"));
    } else if (!isAlert && !isRecord) {
      problems.add(tree.problem(at, prefix + "one of 'record' or 'alert' must be set"));
    }
    if (expr == null || expr.isBlank()) {
      problems.add(tree.problem(at + "/expr", prefix + "field 'expr' must be set in rule"));
    }
    if (isRecord && !isAlert) {
      if (!annotations.isEmpty()) {
        problems.add(
            tree.problem(
                at + "/annotations", prefix + "invalid field 'annotations' in recording rule"));
      }
      if (forDuration != null && !forDuration.isZero()) {
        problems.add(tree.problem(at + "/for", prefix + "invalid field 'for' in recording rule"));
      }
      if (keepFiringFor != null && !keepFiringFor.isZero()) {
        problems.add(
            tree.problem(
                at + "/keep_firing_for",
                prefix + "invalid field 'keep_firing_for' in recording rule"));
      }
    }
    if (expr == null || expr.isBlank() || isAlert == isRecord) {
      return null;
    }
    Rule rule =
        new Rule(
            group,
            index,
            isAlert,
            name,
            expr,
            forDuration,
            keepFiringFor,
            labels,
            annotations,
            at,
            tree.line(at));
    R made = reader.rule(rule, tree, problems);
    return problems.size() > before ? null : made;
  }

  private static <P> String text(
      SourceTree<P> tree, JsonNode node, String at, String key, List<P> problems) {
    JsonNode value = node.get(key);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      problems.add(tree.problem(at + "/" + key, "expected text for " + key));
      return null;
    }
    return value.asText();
  }

  private static <P> Duration duration(
      SourceTree<P> tree, JsonNode node, String at, String key, List<P> problems) {
    String text = text(tree, node, at, key, problems);
    if (text == null) {
      return null;
    }
    Duration duration = Durations.parseOrNull(text);
    if (duration == null) {
      problems.add(tree.problem(at + "/" + key, "not a valid duration string: \"" + text + "\""));
    }
    return duration;
  }

  /**
   * Prometheus 3 refuses {@code __name__} and an empty name as a group label, as it does for a
   * rule's.
   */
  private static <P> Map<String, String> groupLabels(
      SourceTree<P> tree, JsonNode node, String at, List<P> problems) {
    Map<String, String> labels = map(tree, node, at, "labels", problems);
    for (String name : labels.keySet()) {
      if (name.isEmpty() || name.equals("__name__")) {
        problems.add(
            tree.problem(at + "/labels/" + SourceTree.escape(name), "invalid label name: " + name));
      }
    }
    return labels;
  }

  private static <P> int limit(SourceTree<P> tree, JsonNode node, String at, List<P> problems) {
    String text = text(tree, node, at, "limit", problems);
    if (text == null) {
      return 0;
    }
    try {
      int limit = Integer.parseInt(text.strip());
      if (limit >= 0) {
        return limit;
      }
    } catch (NumberFormatException e) {
      // reported below, with the text
    }
    problems.add(
        tree.problem(
            at + "/limit",
            "expected a whole number of at least 0 for limit, got \"" + text + "\""));
    return 0;
  }

  private static <P> Map<String, String> map(
      SourceTree<P> tree, JsonNode node, String at, String key, List<P> problems) {
    JsonNode value = node.get(key);
    if (value == null || value.isNull()) {
      return Map.of();
    }
    if (!value.isObject()) {
      problems.add(tree.problem(at + "/" + key, "expected a mapping of names to text for " + key));
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = value.properties().iterator(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      if (!entry.getValue().isTextual()) {
        problems.add(
            tree.problem(
                at + "/" + key + "/" + SourceTree.escape(entry.getKey()), "expected text"));
      } else {
        out.put(entry.getKey(), entry.getValue().asText());
      }
    }
    return out;
  }

  private static <P> void unknownKeys(
      SourceTree<P> tree, JsonNode node, String at, List<String> known, List<P> problems) {
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!known.contains(name)) {
        problems.add(
            tree.problem(
                at + "/" + SourceTree.escape(name),
                "unknown key \"" + name + "\"; expected one of " + String.join(", ", known)));
      }
    }
  }
}
