package dev.firedrill.alerting.routes;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One node of the route tree.
 *
 * @param path where the route is in the file, as a JSON pointer: {@code /route}, {@code
 *     /route/routes/1/routes/0}
 * @param matchers all of them must match (the legacy {@code match} and {@code match_re} included),
 *     in Alertmanager's order: by name, value, then operator
 * @param continueMatching {@code continue: true}: siblings after this one are tried even when it
 *     matched
 */
public record Route(
    String path,
    List<Matcher> matchers,
    boolean continueMatching,
    RouteOptions options,
    List<Route> routes) {

  public Route {
    Objects.requireNonNull(path, "path");
    matchers = List.copyOf(matchers);
    Objects.requireNonNull(options, "options");
    routes = List.copyOf(routes);
  }

  public String receiver() {
    return options.receiver();
  }

  /**
   * Whether every matcher of this route (not its children) accepts the labels; a missing label is
   * "".
   */
  public boolean accepts(Map<String, String> labels) {
    for (Matcher matcher : matchers) {
      if (!matcher.matches(labels.getOrDefault(matcher.name(), ""))) {
        return false;
      }
    }
    return true;
  }

  /** The matchers as Alertmanager prints them: {@code {a="1",b=~"x"}}. */
  public String matchersText() {
    StringBuilder text = new StringBuilder("{");
    for (int i = 0; i < matchers.size(); i++) {
      text.append(i > 0 ? "," : "").append(matchers.get(i));
    }
    return text.append('}').toString();
  }
}
