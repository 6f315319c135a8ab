package dev.firedrill.embedded.differential;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.firedrill.dashboards.GrafanaDashboard;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Every expression of the project's rule files and dashboards, with each recording rule's name
 * replaced by its expression: the two servers evaluate their recording rules at different instants,
 * so a query reading recorded series would compare evaluation phases, not the engines.
 */
final class ProjectExpressions {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final List<Path> RULE_FILES = ruleFiles();

  private ProjectExpressions() {}

  static List<String> all() {
    Map<String, String> recordings = new LinkedHashMap<>();
    List<String> expressions = new ArrayList<>();
    for (Path file : RULE_FILES) {
      for (JsonNode group : read(file).path("groups")) {
        for (JsonNode rule : group.path("rules")) {
          String expr = rule.path("expr").asText().strip();
          expressions.add(expr);
          if (rule.has("record")) {
            recordings.put(rule.path("record").asText(), expr);
          }
        }
      }
    }
    for (GrafanaDashboard dashboard : GrafanaDashboard.loadAll(Path.of("dashboards"))) {
      for (GrafanaDashboard.Query query : dashboard.queries()) {
        expressions.add(dashboard.variables().expand(query.expr(), query.where()));
      }
    }
    LinkedHashSet<String> written = new LinkedHashSet<>();
    for (String expression : expressions) {
      written.add(inline(expression, recordings));
    }
    return new ArrayList<>(written);
  }

  /** Replaces recorded names (and their matchers) by their expressions until none is left. */
  static String inline(String expression, Map<String, String> recordings) {
    String current = expression;
    for (int depth = 0; depth < 10; depth++) {
      String before = current;
      for (Map.Entry<String, String> recording : recordings.entrySet()) {
        Pattern name =
            Pattern.compile(
                "(?<![\\w:])" + Pattern.quote(recording.getKey()) + "(?![\\w:])(\\{[^}]*\\})?");
        current =
            name.matcher(current)
                .replaceAll(Matcher.quoteReplacement("(" + recording.getValue() + ")"));
      }
      if (current.equals(before)) {
        return current;
      }
    }
    throw new IllegalStateException("recording rules nest deeper than 10 in: " + expression);
  }

  private static JsonNode read(Path file) {
    try {
      return YAML.readTree(file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static List<Path> ruleFiles() {
    List<Path> files = new ArrayList<>(List.of(Path.of("fixtures/lab/recording-rules.yml")));
    try (Stream<Path> alertRules = Files.list(Path.of("alert-rules"))) {
      alertRules.filter(f -> f.toString().endsWith(".yml")).sorted().forEach(files::add);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list alert-rules/", e);
    }
    return files;
  }
}
