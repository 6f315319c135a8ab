package dev.firedrill.embedded.rules;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.alerting.lint.PromDuration;
import dev.firedrill.embedded.rules.template.AlertTemplates;
import dev.firedrill.embedded.rules.template.TemplateException;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.promql.parse.PromqlParser;
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
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads Prometheus rule files for the embedded Prometheus: every problem of every file is
 * collected, each naming file, JSON pointer, line and column, with Prometheus's wording where
 * Prometheus has one ({@code group "g", rule 2, "name": could not parse expression: ...}). Keys
 * outside the supported subset ({@code query_offset}, group {@code labels}) are refused by name
 * rather than ignored. Files may hold Prometheus Operator {@code PrometheusRule} objects, a
 * {@code kind: List} of them and several YAML documents ({@link RuleDocuments}, shared with the
 * linter), as the Operator hands their groups to Prometheus; groups keep the file as their file.
 */
public final class RuleFileLoader {

  private static final List<String> FILE_KEYS = List.of("groups");
  private static final List<String> GROUP_KEYS = List.of("name", "interval", "limit", "rules");
  private static final List<String> RULE_KEYS = List.of("record", "alert", "expr", "for", "keep_firing_for", "labels",
      "annotations");
  private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  private final Function<String, Expr> parser;

  /** @param parser PromQL text to a tree; throws {@link PromqlException} for text that is not PromQL */
  public RuleFileLoader(Function<String, Expr> parser) {
    this.parser = parser;
  }

  public static RuleFileLoader withPromql() {
    return new RuleFileLoader(PromqlParser::parse);
  }

  /** The groups of all files in order. @throws RuleFileException listing every problem of every file */
  public List<RuleGroupSpec> load(List<Path> files) {
    List<RuleFileProblem> problems = new ArrayList<>();
    List<RuleGroupSpec> groups = new ArrayList<>();
    for (Path file : files) {
      String content;
      try {
        content = Files.readString(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        problems.add(new RuleFileProblem(file.toString(), "", "cannot read: " + e, 0, 0));
        continue;
      }
      groups.addAll(read(file.toString(), content, problems));
    }
    if (!problems.isEmpty()) {
      throw new RuleFileException(problems);
    }
    return List.copyOf(groups);
  }

  /** One file's groups. @throws RuleFileException listing every problem */
  public List<RuleGroupSpec> parse(String file, String content) {
    List<RuleFileProblem> problems = new ArrayList<>();
    List<RuleGroupSpec> groups = read(file, content, problems);
    if (!problems.isEmpty()) {
      throw new RuleFileException(problems);
    }
    return groups;
  }

  private List<RuleGroupSpec> read(String file, String content, List<RuleFileProblem> problems) {
    List<RuleGroupSpec> groups = new ArrayList<>();
    for (RuleDocuments.Part<RuleFileProblem> part : RuleDocuments.read(file, content, RuleFileProblem::new, problems)) {
      groups.addAll(part(file, part, problems));
    }
    return groups;
  }

  private List<RuleGroupSpec> part(String file, RuleDocuments.Part<RuleFileProblem> part,
      List<RuleFileProblem> problems) {
    SourceTree<RuleFileProblem> tree = part.tree();
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
    List<RuleGroupSpec> groups = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int g = 0; g < groupsNode.size(); g++) {
      String at = base + "/groups/" + g;
      JsonNode node = groupsNode.get(g);
      if (!node.isObject()) {
        problems.add(tree.problem(at, "expected a rule group with name and rules"));
        continue;
      }
      unknownKeys(tree, node, at, GROUP_KEYS, problems);
      String name = text(tree, node, at, "name", problems);
      if (name == null || name.isEmpty()) {
        problems.add(tree.problem(at, "Groupname must not be empty"));
        name = "";
      } else if (!names.add(name)) {
        problems.add(tree.problem(at + "/name", "groupname: \"" + name + "\" is repeated in the same "
            + (part.object() == null ? "file" : part.object().startsWith("document ") ? "document" : "PrometheusRule")));
      }
      Duration interval = duration(tree, node, at, "interval", problems);
      int limit = limit(tree, node, at, problems);
      JsonNode rulesNode = node.get("rules");
      List<RuleSpec> rules = new ArrayList<>();
      if (rulesNode != null && !rulesNode.isNull() && !rulesNode.isArray()) {
        problems.add(tree.problem(at + "/rules", "expected a list of rules"));
      } else if (rulesNode != null && rulesNode.isArray()) {
        for (int r = 0; r < rulesNode.size(); r++) {
          RuleSpec rule = rule(tree, rulesNode.get(r), at + "/rules/" + r, name, r + 1, problems);
          if (rule != null) {
            rules.add(rule);
          }
        }
      }
      groups.add(new RuleGroupSpec(file, name, interval == null ? 0 : interval.toMillis(), limit, rules));
    }
    return groups;
  }

  private RuleSpec rule(SourceTree<RuleFileProblem> tree, JsonNode node, String at, String group, int index,
      List<RuleFileProblem> problems) {
    if (!node.isObject()) {
      problems.add(tree.problem(at, "expected a rule with alert or record, and expr"));
      return null;
    }
    int before = problems.size();
    unknownKeys(tree, node, at, RULE_KEYS, problems);
    String alert = text(tree, node, at, "alert", problems);
    String record = text(tree, node, at, "record", problems);
    String exprText = text(tree, node, at, "expr", problems);
    Duration forDuration = duration(tree, node, at, "for", problems);
    Duration keepFiringFor = duration(tree, node, at, "keep_firing_for", problems);
    Map<String, String> labels = map(tree, node, at, "labels", problems);
    Map<String, String> annotations = map(tree, node, at, "annotations", problems);
    boolean isAlert = alert != null && !alert.isEmpty();
    boolean isRecord = record != null && !record.isEmpty();
    String name = isAlert ? alert : isRecord ? record : "";
    String prefix = "group \"" + group + "\", rule " + index + ", \"" + name + "\": ";
    if (isAlert && isRecord) {
      problems.add(tree.problem(at + "/record", prefix + "only one of 'record' and 'alert' must be set"));
    } else if (!isAlert && !isRecord) {
      problems.add(tree.problem(at, prefix + "one of 'record' or 'alert' must be set"));
    }
    Expr expr = null;
    if (exprText == null || exprText.isBlank()) {
      problems.add(tree.problem(at + "/expr", prefix + "field 'expr' must be set in rule"));
    } else {
      try {
        expr = parser.apply(exprText);
      } catch (PromqlException e) {
        problems.add(tree.problem(at + "/expr", prefix + "could not parse expression: " + e.getMessage()
            + prometheus3Only(exprText)));
      }
    }
    if (isRecord && !isAlert) {
      if (!annotations.isEmpty()) {
        problems.add(tree.problem(at + "/annotations", prefix + "invalid field 'annotations' in recording rule"));
      }
      if (forDuration != null && !forDuration.isZero()) {
        problems.add(tree.problem(at + "/for", prefix + "invalid field 'for' in recording rule"));
      }
      if (keepFiringFor != null && !keepFiringFor.isZero()) {
        problems.add(tree.problem(at + "/keep_firing_for", prefix + "invalid field 'keep_firing_for' in recording rule"));
      }
      if (!METRIC_NAME.matcher(record).matches()) {
        problems.add(tree.problem(at + "/record", prefix + "invalid recording rule name: " + record));
      }
    }
    labels.keySet().stream().filter(k -> !LABEL_NAME.matcher(k).matches() || k.equals("__name__"))
        .forEach(k -> problems.add(tree.problem(at + "/labels/" + SourceTree.escape(k), prefix + "invalid label name: " + k)));
    annotations.keySet().stream().filter(k -> !LABEL_NAME.matcher(k).matches())
        .forEach(k -> problems.add(tree.problem(at + "/annotations/" + SourceTree.escape(k),
            prefix + "invalid annotation name: " + k)));
    if (isAlert) {
      templates(tree, at, "labels", "label", alert, labels, prefix, problems);
      templates(tree, at, "annotations", "annotation", alert, annotations, prefix, problems);
    }
    if (problems.size() > before || expr == null) {
      return null;
    }
    String query = exprText.strip();
    if (isRecord) {
      return new RuleSpec.Recording(record, query, expr, labels);
    }
    return new RuleSpec.Alerting(alert, query, expr, forDuration == null ? 0 : forDuration.toMillis(),
        keepFiringFor == null ? 0 : keepFiringFor.toMillis(), labels, annotations);
  }

  /** Why Prometheus 3 PromQL fails here: the embedded engine reads and evaluates v2.42's. */
  private static String prometheus3Only(String exprText) {
    try {
      PromqlParser.parse(exprText, PromqlParser.Syntax.PROMETHEUS_3);
    } catch (PromqlException e) {
      return "";
    }
    return " (this is Prometheus 3 PromQL, which the embedded Prometheus, a v2.42, does not evaluate yet)";
  }

  private static void templates(SourceTree<RuleFileProblem> tree, String at, String key, String what, String alert,
      Map<String, String> values, String prefix, List<RuleFileProblem> problems) {
    values.forEach((name, text) -> {
      try {
        AlertTemplates.compile(alert, text);
      } catch (TemplateException e) {
        problems.add(tree.problem(at + "/" + key + "/" + SourceTree.escape(name),
            prefix + what + " \"" + name + "\": " + e.getMessage()));
      }
    });
  }

  private static String text(SourceTree<RuleFileProblem> tree, JsonNode node, String at, String key,
      List<RuleFileProblem> problems) {
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

  private static Duration duration(SourceTree<RuleFileProblem> tree, JsonNode node, String at, String key,
      List<RuleFileProblem> problems) {
    String text = text(tree, node, at, key, problems);
    if (text == null) {
      return null;
    }
    Duration duration = PromDuration.parseOrNull(text);
    if (duration == null) {
      problems.add(tree.problem(at + "/" + key, "not a valid duration string: \"" + text + "\""));
    }
    return duration;
  }

  private static int limit(SourceTree<RuleFileProblem> tree, JsonNode node, String at, List<RuleFileProblem> problems) {
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
    problems.add(tree.problem(at + "/limit", "expected a whole number of at least 0 for limit, got \"" + text + "\""));
    return 0;
  }

  private static Map<String, String> map(SourceTree<RuleFileProblem> tree, JsonNode node, String at, String key,
      List<RuleFileProblem> problems) {
    JsonNode value = node.get(key);
    if (value == null || value.isNull()) {
      return Map.of();
    }
    if (!value.isObject()) {
      problems.add(tree.problem(at + "/" + key, "expected a mapping of names to text for " + key));
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      if (!entry.getValue().isTextual()) {
        problems.add(tree.problem(at + "/" + key + "/" + SourceTree.escape(entry.getKey()), "expected text"));
      } else {
        out.put(entry.getKey(), entry.getValue().asText());
      }
    }
    return out;
  }

  private static void unknownKeys(SourceTree<RuleFileProblem> tree, JsonNode node, String at, List<String> known,
      List<RuleFileProblem> problems) {
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!known.contains(name)) {
        problems.add(tree.problem(at + "/" + SourceTree.escape(name), "unknown key \"" + name + "\"; expected one of "
            + String.join(", ", known)));
      }
    }
  }
}
