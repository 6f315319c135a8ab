package dev.firedrill.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** A dashboard JSON model as Grafana imports it, read for what the tests check. */
public record GrafanaDashboard(String name, JsonNode root) {

  /** A PromQL query of the dashboard, with where it sits ("panel 4 "Error ratio", target A"). */
  public record Query(String where, String expr) {}

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\((.+),\\s*\\w+\\)");

  public static List<GrafanaDashboard> loadAll(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      List<GrafanaDashboard> dashboards = new ArrayList<>();
      for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        dashboards.add(new GrafanaDashboard(file.toString(), JSON.readTree(file.toFile())));
      }
      return dashboards;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the dashboards in " + dir, e);
    }
  }

  /** Every panel but rows, including the panels of collapsed rows. */
  List<JsonNode> panels() {
    List<JsonNode> panels = new ArrayList<>();
    for (JsonNode panel : root.path("panels")) {
      if (panel.path("type").asText().equals("row")) {
        panel.path("panels").forEach(panels::add);
      } else {
        panels.add(panel);
      }
    }
    return panels;
  }

  List<JsonNode> annotations() {
    List<JsonNode> annotations = new ArrayList<>();
    root.path("annotations").path("list").forEach(annotations::add);
    return annotations;
  }

  public GrafanaVariables variables() {
    return GrafanaVariables.of(name, root.path("templating").path("list"));
  }

  /**
   * Every PromQL query Grafana sends for this dashboard: panel targets, Prometheus annotation
   * queries, and the series selector of each {@code label_values(...)} variable.
   */
  public List<Query> queries() {
    List<Query> queries = new ArrayList<>();
    for (JsonNode panel : panels()) {
      for (JsonNode target : panel.path("targets")) {
        queries.add(
            new Query(
                describe(panel) + ", target " + target.path("refId").asText(),
                target.path("expr").asText()));
      }
    }
    for (JsonNode annotation : annotations()) {
      if (annotation.has("expr")) {
        queries.add(
            new Query(
                "annotation \"" + annotation.path("name").asText() + "\"",
                annotation.path("expr").asText()));
      }
    }
    for (JsonNode variable : root.path("templating").path("list")) {
      if (variable.path("type").asText().equals("query")) {
        String definition =
            variable.path("query").path("query").asText(variable.path("query").asText());
        Matcher matcher = LABEL_VALUES.matcher(definition);
        queries.add(
            new Query(
                "variable " + variable.path("name").asText(),
                matcher.matches() ? matcher.group(1) : definition));
      }
    }
    return queries;
  }

  static String describe(JsonNode panel) {
    return "panel " + panel.path("id").asText() + " \"" + panel.path("title").asText() + "\"";
  }
}
