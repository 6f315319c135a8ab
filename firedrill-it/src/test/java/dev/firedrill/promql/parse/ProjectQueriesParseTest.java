package dev.firedrill.promql.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.firedrill.dashboards.GrafanaDashboard;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The project's own PromQL parses: every {@code expr} of the alert rules, the lab's recording rules
 * and the dashboards (with Grafana's variables filled in as Grafana would).
 */
class ProjectQueriesParseTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  record Query(String where, String expr) {}

  @TestFactory
  Stream<DynamicTest> everyRuleAndDashboardQueryParses() throws IOException {
    return queries().stream()
        .map(
            q ->
                DynamicTest.dynamicTest(
                    q.where() + ": " + q.expr(),
                    () ->
                        assertThatCode(() -> PromqlParser.parse(q.expr()))
                            .doesNotThrowAnyException()));
  }

  @Test
  void everySourceHasQueries() throws IOException {
    List<Query> queries = queries();

    for (String source :
        List.of(
            "alert-rules/checkout-slo.yml",
            "alert-rules/lab-alerts.yml",
            "fixtures/lab/recording-rules.yml",
            "dashboards/firedrill-lab.json")) {
      assertThat(queries).as("queries from %s", source).anyMatch(q -> q.where().startsWith(source));
    }
  }

  private static List<Query> queries() throws IOException {
    List<Query> queries = new ArrayList<>();
    List<Path> ruleFiles = new ArrayList<>();
    try (Stream<Path> files = Files.list(Path.of("alert-rules"))) {
      files.filter(f -> f.toString().endsWith(".yml")).sorted().forEach(ruleFiles::add);
    }
    ruleFiles.add(Path.of("fixtures/lab/recording-rules.yml"));
    for (Path file : ruleFiles) {
      collectExprs(file.toString(), YAML.readTree(file.toFile()), queries);
    }
    for (GrafanaDashboard dashboard : GrafanaDashboard.loadAll(Path.of("dashboards"))) {
      for (GrafanaDashboard.Query q : dashboard.queries()) {
        String where = dashboard.name() + ", " + q.where();
        queries.add(new Query(where, dashboard.variables().expand(q.expr(), where)));
      }
    }
    return queries;
  }

  private static void collectExprs(String where, JsonNode node, List<Query> out) {
    if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        collectExprs(where + "[" + i + "]", node.get(i), out);
      }
    } else if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> fields = node.properties().iterator();
          fields.hasNext(); ) {
        Map.Entry<String, JsonNode> field = fields.next();
        if (field.getKey().equals("expr") && field.getValue().isTextual()) {
          out.add(new Query(where, field.getValue().asText()));
        } else {
          collectExprs(where + "." + field.getKey(), field.getValue(), out);
        }
      }
    }
  }
}
