package dev.firedrill.alerting.routes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.firedrill.yaml.Problem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RouteTreeTest {

  private static final String RECEIVERS =
      "receivers: [{name: r}, {name: a}, {name: b}, {name: c}, {name: d}]\n";

  private static RouteTree tree(String yaml) throws RouteConfigException {
    return RouteTree.parse("am.yml", yaml + RECEIVERS);
  }

  private static List<String> problems(String yaml) {
    RouteConfigException e = catchThrowableOfType(RouteConfigException.class, () -> tree(yaml));
    assertThat(e).as("expected problems").isNotNull();
    return e.problems().stream().map(Problem::toString).toList();
  }

  @Test
  void readsTheLabFixture() throws Exception {
    RouteTree lab = RouteTree.load(Path.of("fixtures/lab/alertmanager.yml"));
    assertThat(lab.receivers(Map.of("team", "payments"))).containsExactly("team-payments");
    assertThat(lab.receivers(Map.of("team", "checkout", "x", "y")))
        .containsExactly("team-checkout");
    assertThat(lab.receivers(Map.of())).containsExactly("unrouted");
    Route payments = lab.match(Map.of("team", "payments")).get(0);
    assertThat(payments.path()).isEqualTo("/route/routes/0");
    assertThat(payments.options())
        .isEqualTo(
            new RouteOptions(
                "team-payments",
                List.of("alertname", "service"),
                false,
                Duration.ofSeconds(1),
                Duration.ofSeconds(5),
                Duration.ofHours(1),
                List.of(),
                List.of()));
  }

  @Test
  void childrenInheritReceiverGroupingAndTimingsButNotTimeIntervals() throws Exception {
    RouteTree tree =
        tree(
            """
        route:
          receiver: r
          group_by: [alertname]
          group_interval: 2m
          routes:
            - matchers: [x="1"]
              group_wait: 5s
              mute_time_intervals: [night]
              routes:
                - matchers: [y="1"]
                  receiver: a
                - matchers: [y="2"]
                  group_by: ['...']
                - matchers: [y="3"]
                  group_by: []
                  repeat_interval: 1d
        time_intervals: [{name: night}]
        """);
    Route x = tree.root().routes().get(0);
    assertThat(x.options())
        .isEqualTo(
            new RouteOptions(
                "r",
                List.of("alertname"),
                false,
                Duration.ofSeconds(5),
                Duration.ofMinutes(2),
                Duration.ofHours(4),
                List.of("night"),
                List.of()));
    Route y1 = tree.match(Map.of("x", "1", "y", "1")).get(0);
    assertThat(y1.receiver()).isEqualTo("a");
    assertThat(y1.options().muteTimeIntervals()).isEmpty();
    assertThat(y1.options().groupWait()).isEqualTo(Duration.ofSeconds(5));
    Route y2 = tree.match(Map.of("x", "1", "y", "2")).get(0);
    assertThat(y2.options().groupByAll()).isTrue();
    assertThat(y2.options().groupBy()).containsExactly("alertname");
    Route y3 = tree.match(Map.of("x", "1", "y", "3")).get(0);
    // Alertmanager 0.31 and later: an empty list groups by nothing; 0.25 kept the parent's labels.
    assertThat(y3.options().groupBy()).isEmpty();
    assertThat(y3.options().groupByAll()).isFalse();
    assertThat(y3.options().repeatInterval()).isEqualTo(Duration.ofDays(1));
    RouteTree old =
        RouteTree.parse(
            "am.yml",
            """
        route:
          receiver: r
          group_by: [alertname]
          routes: [{matchers: [y="3"], group_by: []}]
        """
                + RECEIVERS,
            RouteDialect.V0_25);
    assertThat(old.match(Map.of("y", "3")).get(0).options().groupBy()).containsExactly("alertname");
    assertThat(tree.root().options())
        .isEqualTo(
            new RouteOptions(
                "r",
                List.of("alertname"),
                false,
                Duration.ofSeconds(30),
                Duration.ofMinutes(2),
                Duration.ofHours(4),
                List.of(),
                List.of()));
  }

  @Test
  void firstMatchingChildWinsUnlessItContinues() throws Exception {
    RouteTree tree =
        tree(
            """
        route:
          receiver: r
          routes:
            - {matchers: [team=~".+"], receiver: a, continue: true}
            - {matchers: [team="x"], receiver: b}
            - {matchers: [team="x"], receiver: c}
            - {matchers: [team!="x"], receiver: d, continue: true}
        """);
    assertThat(tree.receivers(Map.of("team", "x"))).containsExactly("a", "b");
    assertThat(tree.receivers(Map.of("team", "y"))).containsExactly("a", "d");
    assertThat(tree.receivers(Map.of())).containsExactly("d");
    assertThat(tree.match(Map.of("team", "y")))
        .extracting(Route::path)
        .containsExactly("/route/routes/0", "/route/routes/3");
  }

  @Test
  void aMatchingParentWhoseChildrenAllFailIsTheResult() throws Exception {
    RouteTree tree =
        tree(
            """
        route:
          receiver: r
          routes:
            - matchers: [team="x"]
              receiver: a
              routes:
                - {matchers: [env="prod"], receiver: b, continue: true}
                - {matchers: [env="prod", sev="page"], receiver: c}
            - {matchers: [team="x"], receiver: d}
        """);
    assertThat(tree.receivers(Map.of("team", "x"))).containsExactly("a");
    assertThat(tree.receivers(Map.of("team", "x", "env", "prod"))).containsExactly("b");
    assertThat(tree.receivers(Map.of("team", "x", "env", "prod", "sev", "page")))
        .containsExactly("b", "c");
  }

  @Test
  void legacyMatchAndMatchReAreAnchoredMatchers() throws Exception {
    RouteTree tree =
        tree(
            """
        route:
          receiver: r
          routes:
            - match: {service: api, code: 500}
              match_re: {env: 'prod|stag.*'}
              matchers: ['team="x", sev!~"info|debug"']
              receiver: a
        """);
    Route route = tree.root().routes().get(0);
    assertThat(route.matchersText())
        .isEqualTo(
            "{code=\"500\",env=~\"^(?:prod|stag.*)$\",service=\"api\",sev!~\"info|debug\",team=\"x\"}");
    Map<String, String> labels =
        Map.of("service", "api", "code", "500", "env", "staging", "team", "x");
    assertThat(tree.receivers(labels)).containsExactly("a");
    assertThat(
            tree.receivers(Map.of("service", "api", "code", "500", "env", "preprod", "team", "x")))
        .containsExactly("r");
    assertThat(
            tree.receivers(
                Map.of(
                    "service", "api", "code", "500", "env", "prod", "team", "x", "sev", "debug")))
        .containsExactly("r");
  }

  @Test
  void rendersAsAmtool() throws Exception {
    RouteTree tree =
        tree(
            """
        route:
          receiver: r
          routes:
            - matchers: [team="x"]
              receiver: a
              routes:
                - {matchers: [env="prod"], receiver: b, continue: true}
                - {matchers: [sev="page"], receiver: c}
            - {matchers: [team="y"], receiver: d}
        """);
    assertThat(tree.render())
        .isEqualTo(
            """
        .
        └── default-route  receiver: r
            ├── {team="x"}  receiver: a
            │   ├── {env="prod"}  continue: true  receiver: b
            │   └── {sev="page"}  receiver: c
            └── {team="y"}  receiver: d
        """);
    assertThat(tree.renderMatching(Map.of("team", "x", "env", "prod", "sev", "page")))
        .isEqualTo(
            """
        .
        └── default-route
            └── {team="x"}
                ├── {env="prod"}  receiver: b
                └── {sev="page"}  receiver: c
        """);
  }

  @Test
  void ignoresOtherSections() throws Exception {
    RouteTree tree =
        RouteTree.parse(
            "am.yml",
            """
        global: {resolve_timeout: 5m, smtp_smarthost: 'x:25'}
        templates: ['*.tmpl']
        inhibit_rules: [{source_matchers: [a=b], target_matchers: [c=d], equal: [e]}]
        something_new: {whatever: 1}
        route: {receiver: r}
        receivers: [{name: r, webhook_configs: [{url: 'http://127.0.0.1:1/'}]}]
        """);
    assertThat(tree.receivers(Map.of("a", "b"))).containsExactly("r");
  }

  @Test
  void namesFileFieldAndLineForEachProblem() {
    assertThat(
            problems(
                """
        route:
          receiver: r
          continue: true
          routes:
            - matchers: ['team=~"("']
              receiver: nobody
              group_by: [a, a, 'b-c']
              group_wait: 5 minutes
              repeat_interval: 0s
              contine: true
            - match_re: {env: '[a'}
              routes: {receiver: a}
        """))
        .containsExactly(
            "am.yml: /route/continue: cannot have continue in the root route (line 3, column 3)",
            "am.yml: /route/routes/0/matchers/0: invalid regular expression \"(\": Unclosed group (expected matchers "
                + "such as team=\"payments\", severity=~\"critical|page\" or env!=\"dev\", or \"service.name\"=\"checkout\";"
                + " read as Alertmanager's fallback matcher grammar) (line 5, column 18)",
            "am.yml: /route/routes/0/receiver: undefined receiver \"nobody\"; expected one of the receivers: r, a, b, c, d"
                + " (line 6, column 7)",
            "am.yml: /route/routes/0/group_by/1: duplicated label \"a\" in group_by (line 7, column 21)",
            "am.yml: /route/routes/0/group_wait: expected a duration such as 30s, 5m or 4h, got \"5 minutes\""
                + " (line 8, column 7)",
            "am.yml: /route/routes/0/repeat_interval: repeat_interval cannot be zero (line 9, column 7)",
            "am.yml: /route/routes/0/contine: unknown key; did you mean \"continue\"? (line 10, column 7)",
            "am.yml: /route/routes/1/match_re/env: invalid regular expression \"[a\": missing closing ] (line 11, column 18)",
            "am.yml: /route/routes/1/routes: expected a list of routes, got a mapping (line 12, column 7)");
  }

  @Test
  void refusesARootRouteAlertmanagerRefuses() {
    assertThat(problems("route: {matchers: [a=b], mute_time_intervals: [x]}\n"))
        .containsExactly(
            "am.yml: /route/receiver: missing; the root route must name a default receiver (line 1, column 1)",
            "am.yml: /route/matchers: the root route must not have any matchers (it is the fallback for every alert)"
                + " (line 1, column 9)",
            "am.yml: /route/mute_time_intervals: the root route must not have any mute time intervals (line 1, column 26)",
            "am.yml: /route/mute_time_intervals/0: undefined time interval \"x\" (the file defines none) (line 1, column 48)");
    assertThat(problems("global: {}\n"))
        .containsExactly(
            "am.yml: /route: missing; expected the root route, such as route: {receiver: default} (line 1, column 1)");
    assertThat(problems("route:\n  receiver: r\n   routes: []\n"))
        .containsExactly(
            "am.yml: /route: malformed YAML: mapping values are not allowed here (line 3, column 10)");
    assertThat(problems("route:\n  receiver: r\n  receiver: a\n"))
        .containsExactly(
            "am.yml: /route/receiver: duplicate key; each key may appear once (line 3, column 3)");
  }

  @Test
  void aMissingFileIsOneProblem() {
    RouteConfigException e =
        catchThrowableOfType(
            RouteConfigException.class, () -> RouteTree.load(Path.of("no/such/alertmanager.yml")));
    assertThat(e).hasMessage("no/such/alertmanager.yml: /: cannot read: no such file");
  }

  @Test
  void readsUtf8MatchersAndGroupByAsAlertmanager033AndWarnsWhereTheFallbackDecides()
      throws Exception {
    RouteTree tree =
        tree(
            """
        route:
          receiver: r
          group_by: ["service.name", k8s.pod name]
          routes:
            - matchers: ['"service.name"="checkout"', 'deployment.environment=~"prod|staging"']
              receiver: a
            - matchers: [foo=bar baz]
              receiver: b
        """);
    assertThat(tree.root().options().groupBy()).containsExactly("k8s.pod name", "service.name");
    assertThat(tree.receivers(Map.of("service.name", "checkout", "deployment.environment", "prod")))
        .containsExactly("a");
    assertThat(tree.receivers(Map.of("foo", "bar baz"))).containsExactly("b");
    assertThat(tree.root().routes().get(0).matchersText())
        .isEqualTo("{deployment.environment=~\"prod|staging\",service.name=\"checkout\"}");
    assertThat(tree.warnings())
        .extracting(Problem::toString)
        .containsExactly(
            "am.yml: /route/routes/1/matchers/0: read"
                + " by the classic matcher parser only, which Alertmanager will stop using (the UTF-8 parser says: 8:11:"
                + " unexpected baz: expected a comma or close brace); write it as foo=\"bar baz\" (line 7, column 18)");
  }

  @Test
  void classicAndStrictGrammarsRefuseWhatTheirModesRefuse() {
    String yaml =
        """
        route:
          receiver: r
          group_by: [service.name]
          routes: [{matchers: ['service.name="x"'], receiver: a}, {matchers: [foo=bar baz], receiver: b}]
        """
            + RECEIVERS;
    RouteConfigException classic =
        catchThrowableOfType(
            RouteConfigException.class, () -> RouteTree.parse("am.yml", yaml, RouteDialect.V0_25));
    assertThat(classic.problems())
        .extracting(Problem::toString)
        .containsExactly(
            "am.yml: /route/group_by/0: invalid label name \"service.name\" in group_by (expected [a-zA-Z_][a-zA-Z0-9_]*,"
                + " or '...' alone for every label) (line 3, column 14)",
            "am.yml: /route/routes/0/matchers/0: bad matcher format: service.name=\"x\" (expected matchers such as"
                + " team=\"payments\", severity=~\"critical|page\" or env!=\"dev\"; read as Alertmanager's classic matcher"
                + " grammar) (line 4, column 24)");
    RouteConfigException strict =
        catchThrowableOfType(
            RouteConfigException.class,
            () ->
                RouteTree.parse(
                    "am.yml", yaml, RouteDialect.CURRENT.withMatchers(MatcherSyntax.UTF8)));
    assertThat(strict.problems())
        .extracting(Problem::toString)
        .containsExactly(
            "am.yml: /route/routes/1/matchers/0: 8:11: unexpected baz: expected a comma or close brace (expected matchers"
                + " such as team=\"payments\", severity=~\"critical|page\" or env!=\"dev\", or \"service.name\"=\"checkout\";"
                + " read as Alertmanager's utf8 matcher grammar) (line 4, column 71)");
  }

  @Test
  void routeLabelsAreAlertmanager034sAndRefusedAs033RefusesThem() {
    assertThat(problems("route: {receiver: r, routes: [{receiver: a, labels: {tier: gold}}]}\n"))
        .containsExactly(
            "am.yml: /route/routes/0/labels: unknown key; route labels are Alertmanager 0.34's, and 0.33 and earlier refuse"
                + " them as firedrill does; valid keys here: receiver, group_by, continue, matchers, object_matchers, match, match_re,"
                + " routes, group_wait, group_interval, repeat_interval, mute_time_intervals, active_time_intervals"
                + " (line 1, column 45)");
  }
}
