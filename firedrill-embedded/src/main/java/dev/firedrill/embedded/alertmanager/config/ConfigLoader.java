package dev.firedrill.embedded.alertmanager.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.alerting.routes.Route;
import dev.firedrill.alerting.routes.RouteConfigException;
import dev.firedrill.alerting.routes.RouteTree;
import dev.firedrill.time.Durations;
import dev.firedrill.yaml.NearestName;
import dev.firedrill.yaml.Problem;
import dev.firedrill.yaml.SourceTree;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an alertmanager.yml for the embedded Alertmanager: the route section through {@link
 * RouteTree} (its checks are Alertmanager 0.25's), the rest here, refusing by name what the
 * embedded one does not do.
 */
final class ConfigLoader {

  static final List<String> TOP_KEYS =
      List.of(
          "global",
          "route",
          "receivers",
          "inhibit_rules",
          "templates",
          "time_intervals",
          "mute_time_intervals");

  /** Sections the embedded Alertmanager does not implement; accepted only when empty. */
  private static final List<String> UNSUPPORTED_SECTIONS =
      List.of("inhibit_rules", "templates", "time_intervals", "mute_time_intervals");

  private static final List<String> WEBHOOK_KEYS = List.of("url", "send_resolved", "max_alerts");
  private static final String NOT_SUPPORTED = "not supported by the embedded Alertmanager";
  private static final SourceTree.Options READING =
      new SourceTree.Options(false, false, SourceTree.Scalars.TEXT_NUMBERS, false);

  private final SourceTree<Problem> document;
  private final List<Problem> problems = new ArrayList<>();

  private ConfigLoader(SourceTree<Problem> document) {
    this.document = document;
  }

  static AlertmanagerConfig load(String file, String content) throws ConfigException {
    SourceTree<Problem> document = SourceTree.read(file, content, READING, Problem::new);
    if (document.malformed() != null) {
      throw new ConfigException(List.of(document.malformed()));
    }
    ConfigLoader loader = new ConfigLoader(document);
    RouteTree routes = null;
    try {
      routes = RouteTree.parse(file, content);
    } catch (RouteConfigException e) {
      loader.problems.addAll(e.problems());
    }
    JsonNode top = document.root();
    Duration resolveTimeout = AlertmanagerConfig.DEFAULT_RESOLVE_TIMEOUT;
    Map<String, Receiver> receivers = new LinkedHashMap<>();
    if (top != null && top.isObject()) {
      loader.topKeys(top);
      resolveTimeout = loader.global(top.get("global"));
      loader.receivers(top.get("receivers"), receivers);
      if (routes != null) {
        loader.timeIntervals(routes.root());
        if (!present(top.get("receivers"))) {
          loader.undefinedReceivers(routes.root());
        }
      }
    }
    if (!loader.problems.isEmpty()) {
      List<Problem> sorted = new ArrayList<>(loader.problems);
      sorted.sort(Comparator.comparingInt(Problem::line).thenComparingInt(Problem::column));
      throw new ConfigException(sorted);
    }
    return new AlertmanagerConfig(routes, receivers, resolveTimeout, content);
  }

  private void topKeys(JsonNode top) {
    for (Iterator<String> keys = top.fieldNames(); keys.hasNext(); ) {
      String key = keys.next();
      String at = "/" + SourceTree.escape(key);
      if (!TOP_KEYS.contains(key)) {
        problem(at, "unknown key; " + NearestName.suggest(key, TOP_KEYS, "valid keys here: "));
      } else if (UNSUPPORTED_SECTIONS.contains(key)
          && present(top.get(key))
          && top.get(key).size() > 0) {
        problem(
            at,
            NOT_SUPPORTED
                + " (it does "
                + (key.equals("inhibit_rules") ? "no inhibition" : "not read " + key)
                + "; remove the section, or run the real prometheus-alertmanager)");
      }
    }
  }

  private Duration global(JsonNode global) {
    Duration resolveTimeout = AlertmanagerConfig.DEFAULT_RESOLVE_TIMEOUT;
    if (!present(global)) {
      return resolveTimeout;
    }
    if (!global.isObject()) {
      problem("/global", "expected a mapping, such as global: {resolve_timeout: 5m}");
      return resolveTimeout;
    }
    for (Iterator<Map.Entry<String, JsonNode>> fields = global.properties().iterator();
        fields.hasNext(); ) {
      Map.Entry<String, JsonNode> field = fields.next();
      String at = "/global/" + SourceTree.escape(field.getKey());
      if (!field.getKey().equals("resolve_timeout")) {
        problem(at, NOT_SUPPORTED + " (only resolve_timeout)");
        continue;
      }
      Duration parsed =
          field.getValue().isValueNode() ? Durations.parseOrNull(field.getValue().asText()) : null;
      if (parsed == null || parsed.isZero()) {
        problem(at, "expected a duration above zero such as 5m, got " + describe(field.getValue()));
      } else {
        resolveTimeout = parsed;
      }
    }
    return resolveTimeout;
  }

  private void receivers(JsonNode list, Map<String, Receiver> receivers) {
    if (!present(list)) {
      return;
    }
    if (!list.isArray()) {
      problem("/receivers", "expected a list of receivers, got " + describe(list));
      return;
    }
    for (int i = 0; i < list.size(); i++) {
      String at = "/receivers/" + i;
      JsonNode node = list.get(i);
      if (!node.isObject()) {
        problem(
            at,
            "expected a receiver such as {name: team-payments, webhook_configs: [{url: ...}]}, got "
                + describe(node));
        continue;
      }
      JsonNode name = node.get("name");
      if (!present(name) || !name.isValueNode() || name.asText().isEmpty()) {
        problem(at + "/name", "missing; every receiver needs a name");
        continue;
      }
      List<WebhookConfig> webhooks = new ArrayList<>();
      for (Iterator<Map.Entry<String, JsonNode>> fields = node.properties().iterator();
          fields.hasNext(); ) {
        Map.Entry<String, JsonNode> field = fields.next();
        String key = field.getKey();
        String where = at + "/" + SourceTree.escape(key);
        if (key.equals("webhook_configs")) {
          webhooks(field.getValue(), where, webhooks);
        } else if (key.endsWith("_configs")) {
          problem(where, NOT_SUPPORTED + " (only webhook_configs)");
        } else if (!key.equals("name")) {
          problem(where, "unknown key; valid keys here: name, webhook_configs");
        }
      }
      if (receivers.containsKey(name.asText())) {
        problem(
            at + "/name",
            "receiver \"" + name.asText() + "\" is defined twice (names must be unique)");
      } else {
        receivers.put(name.asText(), new Receiver(name.asText(), webhooks));
      }
    }
  }

  private void webhooks(JsonNode list, String at, List<WebhookConfig> webhooks) {
    if (!present(list)) {
      return;
    }
    if (!list.isArray()) {
      problem(at, "expected a list of webhooks, got " + describe(list));
      return;
    }
    for (int i = 0; i < list.size(); i++) {
      String where = at + "/" + i;
      JsonNode node = list.get(i);
      if (!node.isObject()) {
        problem(
            where,
            "expected a webhook such as {url: http://127.0.0.1:9000/alerts}, got "
                + describe(node));
        continue;
      }
      boolean ok = true;
      for (Iterator<String> keys = node.fieldNames(); keys.hasNext(); ) {
        String key = keys.next();
        if (!WEBHOOK_KEYS.contains(key)) {
          problem(
              where + "/" + SourceTree.escape(key),
              NOT_SUPPORTED + " (only url, send_resolved, max_alerts)");
          ok = false;
        }
      }
      URI url = url(node.get("url"), where + "/url");
      boolean sendResolved = true;
      JsonNode resolved = node.get("send_resolved");
      if (present(resolved)) {
        if (resolved.isBoolean()) {
          sendResolved = resolved.booleanValue();
        } else {
          problem(where + "/send_resolved", "expected true or false, got " + describe(resolved));
          ok = false;
        }
      }
      int maxAlerts = 0;
      JsonNode max = node.get("max_alerts");
      if (present(max)) {
        maxAlerts = count(max);
        if (maxAlerts < 0) {
          problem(
              where + "/max_alerts",
              "expected a count of alerts (0 for all), got " + describe(max));
          ok = false;
        }
      }
      if (ok && url != null) {
        webhooks.add(new WebhookConfig(url, sendResolved, maxAlerts));
      }
    }
  }

  private URI url(JsonNode node, String at) {
    if (!present(node) || !node.isValueNode()) {
      problem(at, "missing; expected the webhook's URL, such as http://127.0.0.1:9000/alerts");
      return null;
    }
    try {
      URI url = new URI(node.asText());
      if (("http".equals(url.getScheme()) || "https".equals(url.getScheme()))
          && url.getHost() != null) {
        return url;
      }
    } catch (URISyntaxException e) {
      // reported below, with the expectation
    }
    problem(at, "expected an http:// or https:// URL with a host, got " + describe(node));
    return null;
  }

  /**
   * Refuses the time intervals of routes: the embedded Alertmanager has none to mute or activate
   * by.
   */
  private void timeIntervals(Route route) {
    if (!route.options().muteTimeIntervals().isEmpty()) {
      problem(route.path() + "/mute_time_intervals", NOT_SUPPORTED + " (it has no time intervals)");
    }
    if (!route.options().activeTimeIntervals().isEmpty()) {
      problem(
          route.path() + "/active_time_intervals", NOT_SUPPORTED + " (it has no time intervals)");
    }
    route.routes().forEach(this::timeIntervals);
  }

  /** The routes loader checks receivers against the list only when there is one. */
  private void undefinedReceivers(Route route) {
    problem(
        route.path() + "/receiver",
        "undefined receiver \""
            + route.receiver()
            + "\" (the file defines no receivers; expected a receivers section)");
  }

  private static int count(JsonNode node) {
    if (!node.isValueNode()) {
      return -1;
    }
    try {
      return Integer.parseInt(node.asText());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static boolean present(JsonNode node) {
    return node != null && !node.isNull();
  }

  private static String describe(JsonNode node) {
    if (node.isObject()) {
      return "a mapping";
    }
    if (node.isArray()) {
      return "a list";
    }
    return node.isTextual() ? "\"" + node.asText() + "\"" : node.asText();
  }

  private void problem(String pointer, String message) {
    problems.add(document.problem(pointer, message));
  }
}
