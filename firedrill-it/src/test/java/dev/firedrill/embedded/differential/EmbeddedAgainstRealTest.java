package dev.firedrill.embedded.differential;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.embedded.EmbeddedPrometheus;
import dev.firedrill.embedded.StandardComponents;
import dev.firedrill.embedded.config.ConfigLoader;
import dev.firedrill.lab.stack.LocalPrometheus;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.testing.RealPrometheus;
import dev.firedrill.time.Clock;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: the embedded Prometheus (the standard components, real time) and the real {@code
 * prometheus} scrape the same loopback exporter, whose samples carry their own timestamps, and
 * evaluate the same rules; then the same API requests must agree field by field.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EmbeddedAgainstRealTest {

  private static final String RULES =
      """
      groups:
        - name: diff
          rules:
            - record: service:http_server_requests:sum
              expr: sum by (service) (http_server_requests_total)
            - alert: OrdersPending
              expr: orders_total{result="pending"} >= 0
              labels:
                severity: page
              annotations:
                summary: orders are pending
            - alert: NeverFires
              expr: orders_total{result="pending"} < 0
              for: 1m
      """;
  private static final List<String> INSTANT =
      List.of(
          "http_server_requests_total",
          "rate(http_server_requests_total[10s])",
          "sum by (service) (increase(http_server_requests_total[10s]))",
          "histogram_quantile(0.9, sum by (le, service) (rate(http_server_request_duration_seconds_bucket[10s])))",
          "diff_temperature * 2 - 1",
          "max_over_time(diff_balance[10s])",
          "topk(2, diff_requests_total)",
          "sum(orders_total) by (result) / ignoring(result) group_left sum(orders_total)",
          "up",
          "sum((");
  private static final List<String> RANGE =
      List.of(
          "rate(http_server_requests_total[6s])",
          "diff_temperature",
          "avg_over_time(diff_balance[6s])",
          "1");

  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();
  private final Clock clock = Clock.system();

  @TempDir Path dir;

  @Test
  void queriesSeriesLabelsRulesAndAlertsAgreeWithTheRealPrometheus() throws Exception {
    try (GeneratedExporter exporter = GeneratedExporter.start(() -> clock.now().toEpochMilli());
        RealPrometheus real = RealPrometheus.start(List.of(exporter.target()), List.of(RULES));
        EmbeddedPrometheus embedded = startEmbedded(exporter.target())) {
      // Data from the next step on, once both scrape: then both hold the very same samples.
      awaitAnswer(real.url(), "up", 1);
      awaitAnswer(embedded.url(), "up", 1);
      exporter.startData();
      awaitAnswer(real.url(), "count_over_time(diff_temperature{sensor=\"1\"}[1m])", 8);
      awaitAnswer(embedded.url(), "count_over_time(diff_temperature{sensor=\"1\"}[1m])", 8);
      long step = clock.now().toEpochMilli() / GeneratedExporter.STEP_MS - 2;
      String at = seconds(step * GeneratedExporter.STEP_MS + 1_000);
      String start = seconds((step - 3) * GeneratedExporter.STEP_MS);
      List<String> differences = new ArrayList<>();

      for (String query : INSTANT) {
        compare(
            differences,
            real.url(),
            embedded.url(),
            "/api/v1/query?query=" + encode(query) + "&time=" + at);
      }
      for (String query : RANGE) {
        compare(
            differences,
            real.url(),
            embedded.url(),
            "/api/v1/query_range?query="
                + encode(query)
                + "&start="
                + start
                + "&end="
                + at
                + "&step=2");
      }
      for (String path :
          List.of(
              "/api/v1/series?match[]=" + encode("{__name__=~\"diff_.*\"}"),
              "/api/v1/label/service/values",
              "/api/v1/label/__name__/values?match[]="
                  + encode("{__name__=~\"diff_.*|orders_.*\"}"),
              "/api/v1/query?query=" + encode("diff_temperature") + "&time=" + at)) {
        String realBody = get(real.url(), path).body();
        String embeddedBody = get(embedded.url(), path).body();
        if (!realBody.equals(embeddedBody)) {
          differences.add(
              path
                  + ": the bodies differ\n  real:     "
                  + realBody
                  + "\n  embedded: "
                  + embeddedBody);
        }
      }
      JsonNode realRules = rules(real.url());
      JsonNode embeddedRules = rules(embedded.url());
      if (!realRules.equals(embeddedRules)) {
        differences.add(
            "/api/v1/rules (times and files left out)\n  real:     "
                + realRules
                + "\n  embedded: "
                + embeddedRules);
      }

      assertThat(differences).as("differences from the real Prometheus").isEmpty();
      assertThat(realRules.toString())
          .as("the rules compared were evaluated")
          .contains("\"name\":\"OrdersPending\"", "\"state\":\"firing\"", "\"health\":\"ok\"");
    }
  }

  private EmbeddedPrometheus startEmbedded(String target) throws Exception {
    Path rules = Files.writeString(dir.resolve("rules.yml"), RULES);
    String yaml =
        LocalPrometheus.global()
            + "rule_files:\n  - '"
            + rules
            + "'\nscrape_configs:\n  - job_name: "
            + RealPrometheus.JOB
            + "\n    static_configs:\n      - targets: ['"
            + target
            + "']\n";
    Path file = Files.writeString(dir.resolve("prometheus.yml"), yaml);
    return EmbeddedPrometheus.start(
        // The real binary here is a v2.42: the embedded one answers as Prometheus 2.
        EmbeddedPrometheus.Settings.of(ConfigLoader.load(file), yaml, 0)
            .withCompat(Compat.PROMETHEUS_2),
        new StandardComponents(Duration.ofSeconds(1), Compat.PROMETHEUS_2),
        clock);
  }

  /** Waits until {@code query} answers one sample of at least {@code atLeast}. */
  private void awaitAnswer(URI server, String query, double atLeast) throws Exception {
    String path = "/api/v1/query?query=" + encode(query);
    long deadline = clock.nanoTime() + Duration.ofSeconds(60).toNanos();
    String last = "";
    while (clock.nanoTime() < deadline) {
      last = get(server, path).body();
      JsonNode result = JSON.readTree(last).path("data").path("result");
      if (result.size() == 1 && result.get(0).path("value").get(1).asDouble() >= atLeast) {
        return;
      }
      clock.sleep(Duration.ofMillis(500));
    }
    throw new AssertionError(
        server + ": " + query + " did not reach " + atLeast + " within 60 s; last answer: " + last);
  }

  private void compare(List<String> differences, URI real, URI embedded, String path)
      throws Exception {
    HttpResponse<String> realAnswer = get(real, path);
    HttpResponse<String> embeddedAnswer = get(embedded, path);
    if (realAnswer.statusCode() != embeddedAnswer.statusCode()) {
      differences.add(
          path
              + ": HTTP "
              + realAnswer.statusCode()
              + " vs "
              + embeddedAnswer.statusCode()
              + "\n  real:     "
              + realAnswer.body()
              + "\n  embedded: "
              + embeddedAnswer.body());
      return;
    }
    ResultComparison.difference(
            JSON.readTree(realAnswer.body()), JSON.readTree(embeddedAnswer.body()))
        .ifPresent(d -> differences.add(path + ": " + d));
  }

  /**
   * The rules as both report them, without what must differ: evaluation times and durations, file
   * paths, activeAt.
   */
  private JsonNode rules(URI server) throws Exception {
    JsonNode groups =
        JSON.readTree(get(server, "/api/v1/rules").body()).path("data").path("groups");
    List<Object> kept = new ArrayList<>();
    for (JsonNode group : groups) {
      List<Object> rules = new ArrayList<>();
      for (JsonNode rule : group.path("rules")) {
        Map<String, Object> fields = new TreeMap<>();
        rule.properties().iterator().forEachRemaining(e -> fields.put(e.getKey(), e.getValue()));
        fields.remove("evaluationTime");
        fields.remove("lastEvaluation");
        List<Object> alerts = new ArrayList<>();
        rule.path("alerts")
            .forEach(
                alert ->
                    alerts.add(
                        Map.of(
                            "labels",
                            alert.path("labels"),
                            "annotations",
                            alert.path("annotations"),
                            "state",
                            alert.path("state"))));
        fields.put("alerts", alerts);
        rules.add(fields);
      }
      kept.add(
          Map.of("name", group.path("name"), "interval", group.path("interval"), "rules", rules));
    }
    return JSON.valueToTree(kept);
  }

  private HttpResponse<String> get(URI server, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(server + path)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private static String seconds(long ms) {
    return ms / 1000 + "." + String.format("%03d", ms % 1000);
  }
}
