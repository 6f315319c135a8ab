package dev.firedrill.embedded.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.embedded.rules.snapshot.GroupSnapshot;
import dev.firedrill.embedded.rules.snapshot.RuleSnapshot;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.time.VirtualClock;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Prometheus 3's filters and pages of {@code /api/v1/rules}, as the real 3.5.3 answers them (its
 * answers for these two groups were read off the binary); in mode 2 they are ignored, as 2.42
 * ignores them.
 */
class RulesFiltersTest {

  private static final Pattern GROUP = Pattern.compile("\"name\":\"([^\"]+)\",\"file\"");
  private static final Pattern RULE = Pattern.compile("\"name\":\"([^\"]+)\",\"query\"");
  private final HttpClient http = HttpClient.newHttpClient();

  private static List<GroupSnapshot> groups() {
    return List.of(
        new GroupSnapshot(
            "g1",
            "rules.yml",
            List.of(
                recording("r:one", Map.of("team", "a")),
                alerting("A1", Map.of("severity", "page"))),
            1,
            0,
            0,
            Optional.empty()),
        new GroupSnapshot(
            "g2", "rules.yml", List.of(recording("r:two", Map.of())), 1, 0, 0, Optional.empty()));
  }

  private static RuleSnapshot recording(String name, Map<String, String> labels) {
    return new RuleSnapshot.Recording(name, "vector(1)", labels, "ok", "", Optional.empty(), 0);
  }

  private static RuleSnapshot alerting(String name, Map<String, String> labels) {
    return new RuleSnapshot.Alerting(
        "inactive",
        name,
        "vector(1)",
        0,
        0,
        labels,
        Map.of(),
        List.of(),
        "ok",
        "",
        Optional.empty(),
        0);
  }

  /** group name: rule names, for each group of the answer; or the answer when it is an error. */
  private String rules(Compat compat, String query) throws Exception {
    StubEngine engine = new StubEngine(compat);
    engine.parses(
        "{team=\"a\"}",
        StubEngine.selector(null, LabelMatcher.of(LabelMatcher.Type.EQUAL, "team", "a")));
    engine.parses(
        "{severity=~\"p.*\"}",
        StubEngine.selector(null, LabelMatcher.of(LabelMatcher.Type.REGEX, "severity", "p.*")));
    try (ApiServer server =
        ApiServer.start(
            new InetSocketAddress("127.0.0.1", 0),
            new ApiServer.Parts(
                engine,
                new StubSeries(),
                RulesFiltersTest::groups,
                () -> "",
                BuildInfo.firedrill(),
                new VirtualClock(Instant.parse("2026-12-03T00:00:00Z"))))) {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/rules?" + query))
                  .timeout(Duration.ofSeconds(10))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      String body = response.body();
      if (response.statusCode() != 200) {
        return response.statusCode() + " " + body;
      }
      List<String> out = new ArrayList<>();
      for (String group : body.split("\\{\"name\":\"(?=g\\d\",\"file\")")) {
        Matcher name = Pattern.compile("^(g\\d)").matcher(group);
        if (name.find()) {
          List<String> rules = new ArrayList<>();
          Matcher rule = RULE.matcher(group);
          while (rule.find()) {
            rules.add(rule.group(1));
          }
          out.add(name.group(1) + ":" + String.join(",", rules));
        }
      }
      Matcher token = Pattern.compile("\"groupNextToken\":\"([0-9a-f]+)\"").matcher(body);
      return String.join(" ", out)
          + (token.find() ? " next=" + token.group(1) : "")
          + (body.contains("\"alerts\":null") ? " alerts=null" : "");
    }
  }

  private static String p(String name, String value) {
    return name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  @Test
  void mode3FiltersGroupsAndRulesAndLeavesOutGroupsWithoutRules() throws Exception {
    Compat three = Compat.PROMETHEUS_3;
    assertThat(rules(three, "")).isEqualTo("g1:r:one,A1 g2:r:two");
    assertThat(rules(three, "type=alert")).isEqualTo("g1:A1");
    assertThat(rules(three, p("rule_name[]", "r:two"))).isEqualTo("g2:r:two");
    assertThat(rules(three, p("rule_group[]", "g2"))).isEqualTo("g2:r:two");
    assertThat(rules(three, p("file[]", "nope"))).isEqualTo("");
    assertThat(rules(three, p("match[]", "{team=\"a\"}"))).isEqualTo("g1:r:one");
    assertThat(rules(three, p("match[]", "{severity=~\"p.*\"}"))).isEqualTo("g1:A1");
    assertThat(rules(three, "type=alert&exclude_alerts=true")).isEqualTo("g1:A1 alerts=null");
  }

  @Test
  void mode3PagesThroughTheGroupsWithPrometheussTokens() throws Exception {
    Compat three = Compat.PROMETHEUS_3;
    // sha1("rules.yml;g2"), the token the real 3.5.3 gave for this page.
    String token = "da7bbf6fea1386911aedd4c196cd14b54c7c80db";
    assertThat(rules(three, "group_limit=1")).isEqualTo("g1:r:one,A1 next=" + token);
    assertThat(rules(three, "group_limit=1&group_next_token=" + token)).isEqualTo("g2:r:two");
    assertThat(rules(three, "group_limit=2")).isEqualTo("g1:r:one,A1 g2:r:two");
    assertThat(rules(three, "group_limit=0"))
        .isEqualTo(
            "400 {\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter"
                + " \\\"group_limit\\\": group_limit needs to be greater than 0\"}");
    assertThat(rules(three, "group_limit=x"))
        .contains(
            "group_limit needs to be a valid number: strconv.ParseInt: parsing \\\"x\\\": invalid"
                + " syntax");
    assertThat(rules(three, "group_limit=1&group_next_token=abc"))
        .contains("invalid group_next_token 'abc'. were rule groups changed?");
    assertThat(rules(three, "group_next_token=abc"))
        .contains("group_limit needs to be present in order to paginate over the groups");
  }

  @Test
  void mode2IgnoresThemAndKeepsEmptyGroupsAs242Does() throws Exception {
    Compat two = Compat.PROMETHEUS_2;
    assertThat(rules(two, "type=alert")).isEqualTo("g1:A1 g2:");
    assertThat(rules(two, p("rule_name[]", "r:two") + "&group_limit=1"))
        .isEqualTo("g1:r:one,A1 g2:r:two");
  }
}
