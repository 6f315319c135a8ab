package dev.firedrill.alerting.routes;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.time.Durations;
import dev.firedrill.yaml.NearestName;
import dev.firedrill.yaml.Problem;
import dev.firedrill.yaml.SourceTree;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Reads the {@code route} section of an alertmanager.yml as Alertmanager does (its checks included:
 * a root route with a receiver and no matchers, no {@code continue} or time intervals on it,
 * defined receivers and time intervals, valid label names, no zero intervals), in the {@link
 * RouteDialect} of the version asked for; every other section is only read for the names of
 * receivers and time intervals. What Alertmanager would log about a matcher (the classic parser
 * read it, or the two parsers disagree) is kept as a warning.
 */
final class RouteConfigLoader {

  static final List<String> KEYS =
      List.of(
          "receiver",
          "group_by",
          "continue",
          "matchers",
          "object_matchers",
          "match",
          "match_re",
          "routes",
          "group_wait",
          "group_interval",
          "repeat_interval",
          "mute_time_intervals",
          "active_time_intervals");

  /** Always YAML; later documents ignored; numbers kept as written; the parser's own words. */
  private static final SourceTree.Options READING =
      new SourceTree.Options(false, false, SourceTree.Scalars.TEXT_NUMBERS, false);

  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  private final SourceTree<Problem> document;
  private final RouteDialect dialect;
  private final List<Problem> problems = new ArrayList<>();
  private final List<Problem> warnings = new ArrayList<>();

  /** Null when the file has no receivers list to check against. */
  private Set<String> receivers;

  private final Set<String> timeIntervals = new LinkedHashSet<>();

  private RouteConfigLoader(SourceTree<Problem> document, RouteDialect dialect) {
    this.document = document;
    this.dialect = dialect;
  }

  /** The root route and the warnings, in file order. */
  record Loaded(Route root, List<Problem> warnings) {}

  static Loaded load(String file, String content, RouteDialect dialect)
      throws RouteConfigException {
    SourceTree<Problem> document = SourceTree.read(file, content, READING, Problem::new);
    if (document.malformed() != null) {
      throw new RouteConfigException(List.of(document.malformed()));
    }
    RouteConfigLoader loader = new RouteConfigLoader(document, dialect);
    loader.problems.addAll(document.problems());
    Route root = loader.root();
    if (!loader.problems.isEmpty()) {
      List<Problem> sorted = new ArrayList<>(loader.problems);
      sorted.sort(Comparator.comparingInt(Problem::line).thenComparingInt(Problem::column));
      throw new RouteConfigException(sorted);
    }
    List<Problem> warnings = new ArrayList<>(loader.warnings);
    warnings.sort(Comparator.comparingInt(Problem::line).thenComparingInt(Problem::column));
    return new Loaded(root, warnings);
  }

  private Route root() {
    JsonNode top = document.root();
    if (top == null || !top.isObject()) {
      problem("", "expected an Alertmanager configuration: a mapping with a route section");
      return null;
    }
    JsonNode list = top.get("receivers");
    if (list != null && list.isArray()) {
      receivers = new LinkedHashSet<>();
      list.forEach(receiver -> receivers.add(receiver.path("name").asText("")));
    }
    for (String section : List.of("time_intervals", "mute_time_intervals")) {
      JsonNode intervals = top.get(section);
      if (intervals != null && intervals.isArray()) {
        intervals.forEach(interval -> timeIntervals.add(interval.path("name").asText("")));
      }
    }
    JsonNode route = top.get("route");
    if (route == null || route.isNull()) {
      problem("/route", "missing; expected the root route, such as route: {receiver: default}");
      return null;
    }
    return route(route, "/route", null);
  }

  private Route route(JsonNode node, String at, RouteOptions parent) {
    if (!node.isObject()) {
      problem(
          at,
          "expected a route: a mapping with a receiver, matchers, routes, ..., got "
              + describe(node));
      return null;
    }
    boolean root = parent == null;
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String key = names.next();
      if (key.equals("labels")) {
        problem(
            at + "/" + key,
            "unknown key; route labels are Alertmanager 0.34's, and 0.33 and earlier refuse"
                + " them as firedrill does; "
                + NearestName.suggest(key, KEYS, "valid keys here: "));
      } else if (!KEYS.contains(key)) {
        problem(
            at + "/" + key, "unknown key; " + NearestName.suggest(key, KEYS, "valid keys here: "));
      }
    }
    RouteOptions inherited = root ? RouteOptions.DEFAULTS : parent;

    String receiver = text(node, at, "receiver");
    if (root && (receiver == null || receiver.isEmpty())) {
      problem(at + "/receiver", "missing; the root route must name a default receiver");
    } else if (receiver != null
        && !receiver.isEmpty()
        && receivers != null
        && !receivers.contains(receiver)) {
      problem(
          at + "/receiver",
          "undefined receiver \""
              + receiver
              + "\"; expected one of the receivers: "
              + String.join(", ", receivers));
    }

    List<String> groupBy = inherited.groupBy();
    boolean groupByAll = inherited.groupByAll();
    List<String> groupByText = strings(node, at, "group_by");
    if (groupByText != null) {
      List<String> labels = new ArrayList<>();
      boolean all = false;
      for (int i = 0; i < groupByText.size(); i++) {
        String label = groupByText.get(i);
        if (label.equals("...")) {
          all = true;
        } else if (!dialect.matchers().validLabelName(label)) {
          problem(
              at + "/group_by/" + i,
              "invalid label name \""
                  + label
                  + "\" in group_by (expected "
                  + dialect.matchers().labelNameRule()
                  + ", or '...' alone for every label)");
        } else if (labels.contains(label)) {
          problem(at + "/group_by/" + i, "duplicated label \"" + label + "\" in group_by");
        } else {
          labels.add(label);
        }
      }
      if (all && !labels.isEmpty()) {
        problem(
            at + "/group_by",
            "cannot have wildcard group_by ('...') and other labels at the same time");
      }
      // As Alertmanager: ['...'] keeps the inherited labels (and groups by all); [] keeps them too
      // before 0.31.
      if (!labels.isEmpty() || groupByText.isEmpty() && dialect.emptyGroupByOverrides()) {
        groupBy = new ArrayList<>(new TreeSet<>(labels));
        groupByAll = false;
      } else if (all) {
        groupByAll = true;
      }
    }

    Duration groupWait = duration(node, at, "group_wait", false, inherited.groupWait());
    Duration groupInterval = duration(node, at, "group_interval", true, inherited.groupInterval());
    Duration repeatInterval =
        duration(node, at, "repeat_interval", true, inherited.repeatInterval());

    List<Matcher> matchers = new ArrayList<>();
    JsonNode match = node.get("match");
    if (present(match)) {
      if (!match.isObject()) {
        problem(
            at + "/match", "expected a mapping of label names to values, got " + describe(match));
      } else {
        match
            .properties()
            .iterator()
            .forEachRemaining(
                e -> {
                  String where = at + "/match/" + e.getKey();
                  if (!LABEL_NAME.matcher(e.getKey()).matches()) {
                    problem(
                        where,
                        "invalid label name \""
                            + e.getKey()
                            + "\" (expected [a-zA-Z_][a-zA-Z0-9_]*)");
                  } else if (!isScalar(e.getValue())) {
                    problem(where, "expected a label value, got " + describe(e.getValue()));
                  } else {
                    matchers.add(Matcher.of(e.getKey(), MatchType.EQUAL, scalar(e.getValue())));
                  }
                });
      }
    }
    JsonNode matchRe = node.get("match_re");
    if (present(matchRe)) {
      if (!matchRe.isObject()) {
        problem(
            at + "/match_re",
            "expected a mapping of label names to regular expressions, got " + describe(matchRe));
      } else {
        matchRe
            .properties()
            .iterator()
            .forEachRemaining(
                e -> {
                  String where = at + "/match_re/" + e.getKey();
                  if (!LABEL_NAME.matcher(e.getKey()).matches()) {
                    problem(
                        where,
                        "invalid label name \""
                            + e.getKey()
                            + "\" (expected [a-zA-Z_][a-zA-Z0-9_]*)");
                  } else if (!isScalar(e.getValue())) {
                    problem(where, "expected a regular expression, got " + describe(e.getValue()));
                  } else {
                    try {
                      // Alertmanager 0.25 keeps the anchored text of a match_re value (and anchors
                      // it again), so it
                      // prints, and sorts, as ^(?:re)$.
                      Matcher.of(e.getKey(), MatchType.REGEXP, scalar(e.getValue()));
                      matchers.add(
                          Matcher.of(
                              e.getKey(), MatchType.REGEXP, "^(?:" + scalar(e.getValue()) + ")$"));
                    } catch (IllegalArgumentException ex) {
                      problem(where, ex.getMessage());
                    }
                  }
                });
      }
    }
    List<String> matcherLines = strings(node, at, "matchers");
    if (matcherLines != null) {
      for (int i = 0; i < matcherLines.size(); i++) {
        try {
          MatcherSyntax.Parsed parsed = dialect.matchers().parseList(matcherLines.get(i));
          matchers.addAll(parsed.matchers());
          String where = at + "/matchers/" + i;
          parsed.warning().ifPresent(warning -> warnings.add(document.problem(where, warning)));
        } catch (IllegalArgumentException e) {
          problem(
              at + "/matchers/" + i,
              e.getMessage()
                  + " (expected matchers such as team=\"payments\", "
                  + "severity=~\"critical|page\" or env!=\"dev\""
                  + (dialect.matchers() == MatcherSyntax.CLASSIC
                      ? ""
                      : ", or \"service.name\"=\"checkout\"")
                  + "; read as Alertmanager's "
                  + dialect.matchers().word()
                  + " matcher grammar)");
        }
      }
    }
    objectMatchers(node, at, matchers);
    matchers.sort(Matcher.ORDER);
    if (root && !matchers.isEmpty()) {
      problem(
          at + "/" + firstPresent(node, "matchers", "object_matchers", "match", "match_re"),
          "the root route must not have any matchers (it is the fallback for every alert)");
    }

    List<String> mute = intervals(node, at, "mute_time_intervals", root);
    List<String> active = intervals(node, at, "active_time_intervals", root);

    boolean continueMatching = false;
    JsonNode cont = node.get("continue");
    if (present(cont)) {
      if (!cont.isBoolean()) {
        problem(at + "/continue", "expected true or false, got " + describe(cont));
      } else {
        continueMatching = cont.booleanValue();
        if (root && continueMatching) {
          problem(at + "/continue", "cannot have continue in the root route");
        }
      }
    }

    RouteOptions options =
        new RouteOptions(
            receiver == null || receiver.isEmpty() ? inherited.receiver() : receiver,
            groupBy,
            groupByAll,
            groupWait,
            groupInterval,
            repeatInterval,
            mute,
            active);

    List<Route> children = new ArrayList<>();
    JsonNode routes = node.get("routes");
    if (present(routes)) {
      if (!routes.isArray()) {
        problem(at + "/routes", "expected a list of routes, got " + describe(routes));
      } else {
        for (int i = 0; i < routes.size(); i++) {
          Route child = route(routes.get(i), at + "/routes/" + i, options);
          if (child != null) {
            children.add(child);
          }
        }
      }
    }
    return new Route(at, matchers, continueMatching, options, children);
  }

  private List<String> intervals(JsonNode node, String at, String key, boolean root) {
    List<String> names = strings(node, at, key);
    if (names == null) {
      return List.of();
    }
    if (root && !names.isEmpty()) {
      problem(at + "/" + key, "the root route must not have any " + key.replace('_', ' '));
    }
    for (int i = 0; i < names.size(); i++) {
      if (!timeIntervals.contains(names.get(i))) {
        problem(
            at + "/" + key + "/" + i,
            "undefined time interval \""
                + names.get(i)
                + "\""
                + (timeIntervals.isEmpty()
                    ? " (the file defines none)"
                    : "; expected one of: " + String.join(", ", timeIntervals)));
      }
    }
    return names;
  }

  private String text(JsonNode node, String at, String key) {
    JsonNode value = node.get(key);
    if (!present(value)) {
      return null;
    }
    if (!isScalar(value)) {
      problem(at + "/" + key, "expected a string, got " + describe(value));
      return null;
    }
    return scalar(value);
  }

  /** A list of scalars as text; null when absent or wrong. */
  private List<String> strings(JsonNode node, String at, String key) {
    JsonNode value = node.get(key);
    if (!present(value)) {
      return null;
    }
    if (!value.isArray()) {
      problem(at + "/" + key, "expected a list of strings, got " + describe(value));
      return null;
    }
    List<String> items = new ArrayList<>();
    boolean ok = true;
    for (int i = 0; i < value.size(); i++) {
      JsonNode item = value.get(i);
      if (!isScalar(item) && !item.isNull()) {
        problem(at + "/" + key + "/" + i, "expected a string, got " + describe(item));
        ok = false;
      } else {
        items.add(item.isNull() ? "" : scalar(item));
      }
    }
    return ok ? items : null;
  }

  private Duration duration(
      JsonNode node, String at, String key, boolean nonZero, Duration inherited) {
    String text = text(node, at, key);
    if (text == null) {
      return inherited;
    }
    Duration parsed = Durations.parseOrNull(text);
    if (parsed == null) {
      problem(at + "/" + key, "expected a duration such as 30s, 5m or 4h, got \"" + text + "\"");
      return inherited;
    }
    if (nonZero && parsed.isZero()) {
      problem(at + "/" + key, key + " cannot be zero");
      return inherited;
    }
    return parsed;
  }

  private static String firstPresent(JsonNode node, String... keys) {
    for (String key : keys) {
      if (present(node.get(key)) && node.get(key).size() > 0) {
        return key;
      }
    }
    return keys[0];
  }

  private static boolean present(JsonNode node) {
    return node != null && !node.isNull();
  }

  private static boolean isScalar(JsonNode node) {
    return node.isValueNode() && !node.isNull();
  }

  private static String scalar(JsonNode node) {
    return node.asText();
  }

  private static String describe(JsonNode node) {
    if (node.isObject()) {
      return "a mapping";
    }
    if (node.isArray()) {
      return "a list";
    }
    if (node.isNull()) {
      return "nothing";
    }
    return node.isTextual() ? "\"" + node.asText() + "\"" : node.asText();
  }

  private void problem(String pointer, String message) {
    problems.add(document.problem(pointer, message));
  }

  /**
   * Grafana's notification policies write matchers as {@code object_matchers}: a list of {@code
   * [name, operator, value]} triples ({@code ["team", "=", "payments"]}), as its Alertmanager's
   * {@code /api/v2/status} and provisioning API hand them out.
   */
  private void objectMatchers(JsonNode node, String at, List<Matcher> matchers) {
    JsonNode list = node.get("object_matchers");
    if (!present(list)) {
      return;
    }
    if (!list.isArray()) {
      problem(
          at + "/object_matchers",
          "expected a list of [name, operator, value] triples, got " + describe(list));
      return;
    }
    for (int i = 0; i < list.size(); i++) {
      JsonNode triple = list.get(i);
      String where = at + "/object_matchers/" + i;
      if (!triple.isArray()
          || triple.size() != 3
          || !isScalar(triple.get(0))
          || !isScalar(triple.get(1))
          || !isScalar(triple.get(2))) {
        problem(
            where,
            "expected [name, operator, value], such as [\"team\", \"=\", \"payments\"], got "
                + describe(triple));
        continue;
      }
      try {
        matchers.add(
            Matcher.of(
                scalar(triple.get(0)), MatchType.of(scalar(triple.get(1))), scalar(triple.get(2))));
      } catch (IllegalArgumentException e) {
        problem(where, e.getMessage() + " (expected an operator of =, !=, =~ or !~)");
      }
    }
  }
}
