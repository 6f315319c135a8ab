package dev.firedrill.embedded.rules;

import dev.firedrill.embedded.rules.template.AlertTemplates;
import dev.firedrill.embedded.rules.template.TemplateException;
import dev.firedrill.format.IoReasons;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.eval.Engine;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.promql.parse.PromqlParser;
import dev.firedrill.rulefmt.RuleFileReader;
import dev.firedrill.yaml.Problem;
import dev.firedrill.yaml.SourceTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads Prometheus rule files for the embedded Prometheus: every problem of every file is
 * collected, each naming file, JSON pointer, line and column, with Prometheus's wording where
 * Prometheus has one ({@code group "g", rule 2, "name": could not parse expression: ...}). Files
 * may hold Prometheus Operator {@code PrometheusRule} objects, a {@code kind: List} of them and
 * several YAML documents, as the Operator hands their groups to Prometheus; groups keep the file as
 * their file. The structure is read by {@link RuleFileReader} in its {@link
 * RuleFileReader.Strictness#EMBEDDED} mode (group {@code query_offset} and {@code labels} refused
 * by name), shared with the linter; this class adds the engine's checks (v2.42 PromQL, legacy
 * names, templates) and turns every problem into one {@link RuleFileException}.
 */
public final class RuleFileLoader {

  private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  private final Function<String, Expr> parser;

  /**
   * @param parser PromQL text to a tree; throws {@link PromqlException} for text that is not PromQL
   */
  public RuleFileLoader(Function<String, Expr> parser) {
    this.parser = parser;
  }

  /** Prometheus v2.42's PromQL grammar, whatever an engine's mode. */
  public static RuleFileLoader withPromql() {
    return new RuleFileLoader(PromqlParser::parse);
  }

  /**
   * The grammar of the engine's {@link dev.firedrill.promql.eval.Compat} mode, which evaluates the
   * rules.
   */
  public static RuleFileLoader readingAs(Engine engine) {
    return new RuleFileLoader(engine::parse);
  }

  /**
   * The groups of all files in order. @throws RuleFileException listing every problem of every file
   */
  public List<RuleGroupSpec> load(List<Path> files) {
    List<Problem> problems = new ArrayList<>();
    List<RuleGroupSpec> groups = new ArrayList<>();
    for (Path file : files) {
      String content;
      try {
        content = Files.readString(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        problems.add(new Problem(file.toString(), "", "cannot read: " + IoReasons.of(e), 0, 0));
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
    List<Problem> problems = new ArrayList<>();
    List<RuleGroupSpec> groups = read(file, content, problems);
    if (!problems.isEmpty()) {
      throw new RuleFileException(problems);
    }
    return groups;
  }

  private List<RuleGroupSpec> read(String file, String content, List<Problem> problems) {
    RuleFileReader.Rules<Problem, RuleGroupSpec, RuleSpec> specs =
        new RuleFileReader.Rules<>() {
          @Override
          public RuleSpec rule(
              RuleFileReader.Rule rule, SourceTree<Problem> tree, List<Problem> found) {
            return spec(rule, tree, found);
          }

          @Override
          public RuleGroupSpec group(RuleFileReader.Group group, List<RuleSpec> rules) {
            return new RuleGroupSpec(
                file,
                group.name(),
                group.interval() == null ? 0 : group.interval().toMillis(),
                group.limit(),
                rules);
          }
        };
    List<RuleGroupSpec> groups = new ArrayList<>();
    for (RuleFileReader.Holder<RuleGroupSpec> holder :
        RuleFileReader.read(
            file, content, Problem::new, problems, RuleFileReader.Strictness.EMBEDDED, specs)) {
      groups.addAll(holder.groups());
    }
    return groups;
  }

  /** What the engine adds to the shared structure: the v2.42 parse, legacy names, templates. */
  private RuleSpec spec(
      RuleFileReader.Rule rule, SourceTree<Problem> tree, List<Problem> problems) {
    String at = rule.pointer();
    String prefix = rule.prefix();
    int before = problems.size();
    Expr expr = null;
    try {
      expr = parser.apply(rule.expr());
    } catch (PromqlException e) {
      problems.add(
          tree.problem(
              at + "/expr",
              prefix
                  + "could not parse expression: "
                  + e.getMessage()
                  + prometheus3Only(rule.expr())));
    }
    if (!rule.alert() && !METRIC_NAME.matcher(rule.name()).matches()) {
      problems.add(
          tree.problem(at + "/record", prefix + "invalid recording rule name: " + rule.name()));
    }
    rule.labels().keySet().stream()
        .filter(k -> !LABEL_NAME.matcher(k).matches() || k.equals("__name__"))
        .forEach(
            k ->
                problems.add(
                    tree.problem(
                        at + "/labels/" + SourceTree.escape(k),
                        prefix + "invalid label name: " + k)));
    rule.annotations().keySet().stream()
        .filter(k -> !LABEL_NAME.matcher(k).matches())
        .forEach(
            k ->
                problems.add(
                    tree.problem(
                        at + "/annotations/" + SourceTree.escape(k),
                        prefix + "invalid annotation name: " + k)));
    if (rule.alert()) {
      templates(tree, at, "labels", "label", rule.name(), rule.labels(), prefix, problems);
      templates(
          tree, at, "annotations", "annotation", rule.name(), rule.annotations(), prefix, problems);
    }
    if (problems.size() > before || expr == null) {
      return null;
    }
    String query = rule.expr().strip();
    if (!rule.alert()) {
      return new RuleSpec.Recording(rule.name(), query, expr, rule.labels());
    }
    return new RuleSpec.Alerting(
        rule.name(),
        query,
        expr,
        rule.forDuration() == null ? 0 : rule.forDuration().toMillis(),
        rule.keepFiringFor() == null ? 0 : rule.keepFiringFor().toMillis(),
        rule.labels(),
        rule.annotations());
  }

  /** Why Prometheus 3 PromQL fails here: the loader reads v2.42's (the engine's mode 2). */
  private static String prometheus3Only(String exprText) {
    try {
      PromqlParser.parse(exprText, PromqlParser.Syntax.PROMETHEUS_3);
    } catch (PromqlException e) {
      return "";
    }
    return " (this is Prometheus 3 PromQL, which the embedded Prometheus in Prometheus 2 mode does not evaluate; --compat 3 reads it)";
  }

  private static void templates(
      SourceTree<Problem> tree,
      String at,
      String key,
      String what,
      String alert,
      Map<String, String> values,
      String prefix,
      List<Problem> problems) {
    values.forEach(
        (name, text) -> {
          try {
            AlertTemplates.compile(alert, text);
          } catch (TemplateException e) {
            problems.add(
                tree.problem(
                    at + "/" + key + "/" + SourceTree.escape(name),
                    prefix + what + " \"" + name + "\": " + e.getMessage()));
          }
        });
  }
}
