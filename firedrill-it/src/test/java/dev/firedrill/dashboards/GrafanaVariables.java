package dev.firedrill.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces Grafana's variables in a query the way Grafana would before sending it to Prometheus:
 * the built-ins as they come out for the lab (1 s scrape interval, a 5 minute time range) and the
 * dashboard's own template variables (a constant's value, "All" of a multi-value variable as its
 * {@code allValue}, otherwise its current value).
 */
public final class GrafanaVariables {

  // $__rate_interval is max($__interval + scrape interval, 4 x scrape interval) with a 1 s scrape
  // interval.
  private static final Map<String, String> BUILT_INS =
      Map.of(
          "__interval", "1s",
          "__interval_ms", "1000",
          "__rate_interval", "4s",
          "__range", "300s",
          "__range_s", "300",
          "__range_ms", "300000");

  // ${name}, ${name:format}, [[name]] and $name, as Grafana's template service matches them.
  private static final Pattern REFERENCE =
      Pattern.compile("\\$\\{(\\w+)(?::[\\w-]+)?}|\\[\\[(\\w+)(?::[\\w-]+)?]]|\\$(\\w+)");

  private final String dashboard;
  private final Map<String, String> values;

  private GrafanaVariables(String dashboard, Map<String, String> values) {
    this.dashboard = dashboard;
    this.values = values;
  }

  static GrafanaVariables of(String dashboard, JsonNode templatingList) {
    Map<String, String> values = new HashMap<>(BUILT_INS);
    for (JsonNode variable : templatingList) {
      String name = variable.path("name").asText();
      String type = variable.path("type").asText();
      switch (type) {
        case "datasource" -> {} // only ever a panel's datasource uid, never inside a query
        case "constant" -> values.put(name, variable.path("query").asText());
        case "query", "custom", "interval", "textbox" ->
            values.put(name, value(dashboard, name, variable));
        default ->
            throw new AssertionError(
                dashboard
                    + ": variable "
                    + name
                    + " has type "
                    + type
                    + ", which this test cannot fill in (expected datasource, constant, query, custom, interval or textbox)");
      }
    }
    return new GrafanaVariables(dashboard, values);
  }

  /** {@code text} with every variable replaced; an unknown one fails naming {@code where}. */
  public String expand(String text, String where) {
    Matcher matcher = REFERENCE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (matcher.find()) {
      String name =
          matcher.group(1) != null
              ? matcher.group(1)
              : matcher.group(2) != null ? matcher.group(2) : matcher.group(3);
      String value = values.get(name);
      if (value == null) {
        throw new AssertionError(
            dashboard + ", " + where + ": unknown variable $" + name + " in: " + text);
      }
      matcher.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    matcher.appendTail(out);
    return out.toString();
  }

  private static String value(String dashboard, String name, JsonNode variable) {
    JsonNode current = variable.path("current").path("value");
    String first = current.isArray() ? current.path(0).asText("") : current.asText("");
    if (first.equals("$__all")) {
      String all = variable.path("allValue").asText("");
      if (all.isEmpty()) {
        throw new AssertionError(
            dashboard
                + ": variable "
                + name
                + " selects All but has no allValue, so its "
                + "value depends on what Prometheus has; set allValue (e.g. .+)");
      }
      return all;
    }
    if (first.isEmpty()) {
      throw new AssertionError(dashboard + ": variable " + name + " has no current value");
    }
    return first;
  }
}
