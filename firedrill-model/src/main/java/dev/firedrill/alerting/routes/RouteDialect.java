package dev.firedrill.alerting.routes;

import java.util.Objects;

/**
 * Where Alertmanager versions read the same route tree differently.
 *
 * @param matchers the matcher grammar ({@code --enable-feature} of 0.27 and later)
 * @param emptyGroupByOverrides {@code group_by: []} groups by nothing, whatever the parent groups
 *     by (0.31 and later); before, an empty list kept the parent's labels
 */
public record RouteDialect(MatcherSyntax matchers, boolean emptyGroupByOverrides) {

  /**
   * Alertmanager 0.31 and later without feature flags (0.33 when this was written): the default.
   */
  public static final RouteDialect CURRENT = new RouteDialect(MatcherSyntax.FALLBACK, true);

  /** Alertmanager 0.25, Debian 12's: classic matchers only, and an empty group_by inherits. */
  public static final RouteDialect V0_25 = new RouteDialect(MatcherSyntax.CLASSIC, false);

  public RouteDialect {
    Objects.requireNonNull(matchers, "matchers");
  }

  /**
   * This dialect with another matcher grammar, as {@code --enable-feature=classic-mode} or {@code
   * utf8-strict-mode} gives.
   */
  public RouteDialect withMatchers(MatcherSyntax syntax) {
    return new RouteDialect(syntax, emptyGroupByOverrides);
  }
}
