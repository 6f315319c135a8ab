package dev.firedrill.alerting.routes;

import dev.firedrill.yaml.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Alertmanager's route tree, read from an alertmanager.yml, and the dispatcher's matching: depth
 * first; a route matches when all its matchers do; its children are tried in order, and the first
 * one that matches ends the search unless it has {@code continue: true}; a matching route none of
 * whose children match is itself the result.
 */
public final class RouteTree {

  private final String file;
  private final Route root;
  private final List<Problem> warnings;

  private RouteTree(String file, Route root, List<Problem> warnings) {
    this.file = file;
    this.root = root;
    this.warnings = List.copyOf(warnings);
  }

  /**
   * Reads the route tree of an alertmanager.yml as today's Alertmanager does by default ({@link
   * RouteDialect#CURRENT}); every problem names the file, the field and its line.
   */
  public static RouteTree load(Path path) throws RouteConfigException {
    return load(path, RouteDialect.CURRENT);
  }

  /** Reads the route tree of an alertmanager.yml as the Alertmanager of {@code dialect} does. */
  public static RouteTree load(Path path, RouteDialect dialect) throws RouteConfigException {
    String content;
    try {
      content = Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new RouteConfigException(
          List.of(
              new Problem(
                  path.toString(),
                  "",
                  "cannot read: "
                      + (e instanceof java.nio.file.NoSuchFileException
                          ? "no such file"
                          : e.toString()),
                  0,
                  0)));
    }
    return parse(path.toString(), content, dialect);
  }

  /**
   * Reads the route tree from text as today's Alertmanager does by default; {@code file} names it
   * in problems.
   */
  public static RouteTree parse(String file, String content) throws RouteConfigException {
    return parse(file, content, RouteDialect.CURRENT);
  }

  public static RouteTree parse(String file, String content, RouteDialect dialect)
      throws RouteConfigException {
    RouteConfigLoader.Loaded loaded =
        RouteConfigLoader.load(file, content, Objects.requireNonNull(dialect, "dialect"));
    return new RouteTree(file, loaded.root(), loaded.warnings());
  }

  /**
   * What Alertmanager would log while reading the tree, each naming where: a matcher only the
   * classic parser reads, or one the two parsers read differently (the classic reading is kept).
   */
  public List<Problem> warnings() {
    return warnings;
  }

  public String file() {
    return file;
  }

  public Route root() {
    return root;
  }

  /**
   * The routes an alert with these labels is dispatched to, in tree order; never empty (the root
   * takes the rest).
   */
  public List<Route> match(Map<String, String> labels) {
    Objects.requireNonNull(labels, "labels");
    List<Route> matched = new ArrayList<>();
    match(root, labels, matched);
    return List.copyOf(matched);
  }

  /** The receivers of {@link #match}, in order (a receiver twice when two routes name it). */
  public List<String> receivers(Map<String, String> labels) {
    return match(labels).stream().map(Route::receiver).toList();
  }

  /**
   * Adds the matches under {@code route}; false when the route's own matchers reject the labels.
   */
  private static boolean match(Route route, Map<String, String> labels, List<Route> matched) {
    if (!route.accepts(labels)) {
      return false;
    }
    int before = matched.size();
    for (Route child : route.routes()) {
      if (match(child, labels, matched) && !child.continueMatching()) {
        break;
      }
    }
    if (matched.size() == before) {
      matched.add(route);
    }
    return true;
  }

  /**
   * The whole tree as {@code amtool config routes show} prints it (without its "Routing tree:"
   * heading).
   */
  public String render() {
    TreeText tree = new TreeText();
    show(root, tree, 0);
    return tree.toString();
  }

  /**
   * The matching part of the tree as {@code amtool config routes test --tree} prints it (without
   * its heading).
   */
  public String renderMatching(Map<String, String> labels) {
    TreeText tree = new TreeText();
    if (root.accepts(labels)) {
      matching(root, labels, tree, 0);
    }
    return tree.toString();
  }

  private static void show(Route route, TreeText tree, int depth) {
    tree.add(depth, slug(route, true, true));
    for (Route child : route.routes()) {
      show(child, tree, depth + 1);
    }
  }

  private static void matching(Route route, Map<String, String> labels, TreeText tree, int depth) {
    int line = tree.add(depth, slug(route, false, false));
    boolean last = true;
    for (Route child : route.routes()) {
      if (child.accepts(labels)) {
        matching(child, labels, tree, depth + 1);
        last = false;
        if (!child.continueMatching()) {
          break;
        }
      }
    }
    if (last) {
      tree.set(line, slug(route, false, true));
    }
  }

  private static String slug(Route route, boolean showContinue, boolean showReceiver) {
    String text = route.matchers().isEmpty() ? "default-route" : route.matchersText();
    if (route.continueMatching() && showContinue) {
      text += "  continue: true";
    }
    if (showReceiver) {
      text += "  receiver: " + route.receiver();
    }
    return text;
  }

  /** xlab/treeprint's layout: "." then one line per node with box-drawing edges. */
  private static final class TreeText {
    private final List<Integer> depths = new ArrayList<>();
    private final List<String> values = new ArrayList<>();

    int add(int depth, String value) {
      depths.add(depth);
      values.add(value);
      return values.size() - 1;
    }

    void set(int line, String value) {
      values.set(line, value);
    }

    @Override
    public String toString() {
      StringBuilder text = new StringBuilder(".\n");
      for (int i = 0; i < values.size(); i++) {
        int depth = depths.get(i);
        StringBuilder prefix = new StringBuilder();
        for (int level = 0; level < depth; level++) {
          prefix.append(hasLaterSibling(i, level) ? "│   " : "    ");
        }
        prefix.append(hasLaterSibling(i, depth) ? "├── " : "└── ");
        text.append(prefix).append(values.get(i)).append('\n');
      }
      return text.toString();
    }

    /**
     * Whether the ancestor of line {@code i} at {@code level} (or the line itself) has a sibling
     * below it.
     */
    private boolean hasLaterSibling(int i, int level) {
      for (int j = i + 1; j < depths.size(); j++) {
        if (depths.get(j) < level) {
          return false;
        }
        if (depths.get(j) == level) {
          return true;
        }
      }
      return false;
    }
  }
}
