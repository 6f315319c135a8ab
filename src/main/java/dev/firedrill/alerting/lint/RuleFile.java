package dev.firedrill.alerting.lint;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.rulefmt.RuleDocuments;
import dev.firedrill.yaml.SourceTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The groups of one holder of rule groups: a plain Prometheus rule file, or one PrometheusRule
 * object or document of a file ({@link RuleDocuments}); each expression already scanned.
 * {@code name} is how findings name it: the file, with the object when there is one.
 */
public record RuleFile(String name, List<Group> groups) {

  /** A rule group; {@code interval} is null when the group takes the global evaluation interval. */
  public record Group(String name, Duration interval, List<Rule> rules) {}

  /**
   * One rule. {@code kind} is {@code alert} or {@code record}; {@code forDuration} is null without
   * {@code for}; {@code line} is where the rule starts.
   */
  public record Rule(String kind, String name, String expr, PromQl.Scan scan, Duration forDuration,
      Map<String, String> labels, Map<String, String> annotations, int line) {

    public boolean isAlert() {
      return kind.equals("alert");
    }
  }

  private static final Set<String> FILE_KEYS = Set.of("groups");
  private static final Set<String> GROUP_KEYS = Set.of("name", "interval", "limit", "rules", "query_offset", "labels");
  private static final Set<String> RULE_KEYS = Set.of("record", "alert", "expr", "for", "keep_firing_for", "labels",
      "annotations");

  /**
   * Reads a rule file: one RuleFile per holder of groups (one for a plain file, one per
   * PrometheusRule object or document); what it cannot read goes to {@code problems}, and a holder
   * with problems is left out. {@code display} is how findings name the file.
   */
  public static List<RuleFile> read(Path path, String display, List<ReadProblem> problems) {
    String content;
    try {
      content = Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      problems.add(new ReadProblem(display, "", "cannot read: " + e, 0, 0));
      return List.of();
    }
    return parse(display, content, problems);
  }

  static List<RuleFile> parse(String display, String content, List<ReadProblem> problems) {
    List<RuleFile> files = new ArrayList<>();
    for (RuleDocuments.Part<ReadProblem> part : RuleDocuments.read(display, content, ReadProblem::new, problems)) {
      RuleFile file = part(part, display, problems);
      if (file != null) {
        files.add(file);
      }
    }
    return List.copyOf(files);
  }

  private static RuleFile part(RuleDocuments.Part<ReadProblem> part, String display, List<ReadProblem> problems) {
    int before = problems.size();
    SourceTree<ReadProblem> tree = part.tree();
    String base = part.pointer();
    String name = part.name(display);
    unknownKeys(tree, part.holder(), base, FILE_KEYS, problems);
    JsonNode groupsNode = part.holder().get("groups");
    List<Group> groups = new ArrayList<>();
    if (groupsNode == null || groupsNode.isNull()) {
      return problems.size() == before ? new RuleFile(name, List.of()) : null;
    }
    if (!groupsNode.isArray()) {
      problems.add(tree.problem(base + "/groups", "expected a list of rule groups"));
      return null;
    }
    Set<String> names = new HashSet<>();
    for (int g = 0; g < groupsNode.size(); g++) {
      String at = base + "/groups/" + g;
      JsonNode node = groupsNode.get(g);
      if (!node.isObject()) {
        problems.add(tree.problem(at, "expected a rule group with name and rules"));
        continue;
      }
      unknownKeys(tree, node, at, GROUP_KEYS, problems);
      String group = text(tree, node, at, "name", problems);
      if (group == null || group.isBlank()) {
        problems.add(tree.problem(at + "/name", "expected the group's name"));
        group = "#" + (g + 1);
      } else if (!names.add(group)) {
        problems.add(tree.problem(at + "/name", "group name " + group + " is used twice in this "
            + (part.object() == null ? "file" : part.object().startsWith("document ") ? "document" : "PrometheusRule")));
      }
      Duration interval = duration(tree, node, at, "interval", problems);
      List<Rule> rules = new ArrayList<>();
      JsonNode rulesNode = node.get("rules");
      if (rulesNode != null && !rulesNode.isNull() && !rulesNode.isArray()) {
        problems.add(tree.problem(at + "/rules", "expected a list of rules"));
      } else if (rulesNode != null && rulesNode.isArray()) {
        for (int r = 0; r < rulesNode.size(); r++) {
          Rule rule = rule(tree, rulesNode.get(r), at + "/rules/" + r, problems);
          if (rule != null) {
            rules.add(rule);
          }
        }
      }
      groups.add(new Group(group, interval, List.copyOf(rules)));
    }
    return problems.size() == before ? new RuleFile(name, List.copyOf(groups)) : null;
  }

  private static Rule rule(SourceTree<ReadProblem> tree, JsonNode node, String at, List<ReadProblem> problems) {
    if (!node.isObject()) {
      problems.add(tree.problem(at, "expected a rule with alert or record, and expr"));
      return null;
    }
    unknownKeys(tree, node, at, RULE_KEYS, problems);
    String alert = text(tree, node, at, "alert", problems);
    String record = text(tree, node, at, "record", problems);
    String expr = text(tree, node, at, "expr", problems);
    Duration forDuration = duration(tree, node, at, "for", problems);
    Map<String, String> labels = map(tree, node, at, "labels", problems);
    Map<String, String> annotations = map(tree, node, at, "annotations", problems);
    boolean ok = true;
    if ((alert == null) == (record == null)) {
      problems.add(tree.problem(at, alert == null ? "expected alert (an alerting rule) or record (a recording rule)"
          : "expected alert or record, not both"));
      ok = false;
    }
    if (record != null && (forDuration != null || !annotations.isEmpty())) {
      problems.add(tree.problem(at + (forDuration != null ? "/for" : "/annotations"),
          "a recording rule takes no for and no annotations"));
      ok = false;
    }
    if (expr == null || expr.isBlank()) {
      problems.add(tree.problem(at + "/expr", "expected expr, the rule's PromQL expression"));
      return null;
    }
    PromQl.Scan scan;
    try {
      scan = PromQl.scan(expr);
    } catch (PromQl.Unreadable e) {
      problems.add(tree.problem(at + "/expr", "could not parse expression: " + e.getMessage()));
      return null;
    }
    if (!ok) {
      return null;
    }
    String kind = alert != null ? "alert" : "record";
    return new Rule(kind, alert != null ? alert : record, expr, scan, forDuration, labels, annotations, tree.line(at));
  }

  private static String text(SourceTree<ReadProblem> tree, JsonNode node, String at, String key, List<ReadProblem> problems) {
    JsonNode value = node.get(key);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      problems.add(tree.problem(at + "/" + key, "expected text"));
      return null;
    }
    return value.asText();
  }

  private static Duration duration(SourceTree<ReadProblem> tree, JsonNode node, String at, String key, List<ReadProblem> problems) {
    String text = text(tree, node, at, key, problems);
    if (text == null) {
      return null;
    }
    Duration duration = PromDuration.parseOrNull(text);
    if (duration == null) {
      problems.add(tree.problem(at + "/" + key, "expected a duration such as 30s, 5m or 1h"));
    }
    return duration;
  }

  private static Map<String, String> map(SourceTree<ReadProblem> tree, JsonNode node, String at, String key,
      List<ReadProblem> problems) {
    JsonNode value = node.get(key);
    if (value == null || value.isNull()) {
      return Map.of();
    }
    if (!value.isObject()) {
      problems.add(tree.problem(at + "/" + key, "expected a mapping of names to text"));
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      if (!entry.getValue().isTextual()) {
        problems.add(tree.problem(at + "/" + key + "/" + entry.getKey(), "expected text"));
      } else {
        out.put(entry.getKey(), entry.getValue().asText());
      }
    }
    return out;
  }

  private static void unknownKeys(SourceTree<ReadProblem> tree, JsonNode node, String at, Set<String> known,
      List<ReadProblem> problems) {
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!known.contains(name)) {
        problems.add(tree.problem(at + "/" + name, "unknown key " + name + "; expected one of "
            + String.join(", ", known.stream().sorted().toList())));
      }
    }
  }
}
