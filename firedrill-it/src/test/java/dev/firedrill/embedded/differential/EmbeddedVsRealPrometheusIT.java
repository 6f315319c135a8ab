package dev.firedrill.embedded.differential;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.lab.stack.LocalPrometheus;
import dev.firedrill.lab.stack.Runner;
import dev.firedrill.net.Loopback;
import dev.firedrill.testing.FiredrillJar;
import dev.firedrill.testing.RequiredBinary;
import dev.firedrill.testing.Stacks;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issues 7 and 19's differential test, in both compatibility modes at once: the real {@code
 * prometheus} 2.42 beside {@code firedrill prometheus --compat 2}, and the real 3.5 beside {@code
 * --compat 3} (with UTF-8 names, duration expressions and a regex over a newline added to its
 * corpus). All four scrape the same {@link GeneratedExporter} for the same minutes and evaluate the
 * same rule files. Every sample carries an explicit timestamp and changes less often than the
 * scrape interval, so both hold identical samples; then the same queries (the generated corpus, and
 * every expression of the rule files and dashboards with recording rules written out) must give the
 * same answers as instant and range queries, and the alerts a fault triggers must become active and
 * fire within one evaluation interval (plus one scrape interval) of each other.
 */
class EmbeddedVsRealPrometheusIT {

  private static final Duration INTERVAL = Duration.ofSeconds(1);
  private static final List<String> FAULT_ALERTS =
      List.of("CheckoutErrorBudgetBurn", "CheckoutLatencyHigh", "CheckoutOrdersPending");
  private static final Path RECORDING_RULES = Path.of("fixtures/lab/recording-rules.yml");
  private static final Path LAB_ALERTS = Path.of("alert-rules/lab-alerts.yml");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final Clock clock = Clock.system();

  /**
   * One comparison: a real binary and {@code firedrill prometheus --compat N} beside it, on the
   * same exporter and rule files; {@code extraQueries} are what only this pair's version reads.
   */
  private record Pair(
      String name,
      LocalPrometheus real,
      URI embedded,
      Process embeddedProcess,
      List<String> extraQueries) {}

  @Test
  void bothServersAnswerEveryQueryAlikeAndFireTheFaultsAlertsAtTheSameEvaluations(@TempDir Path dir)
      throws Exception {
    Path v2 = RequiredBinary.find("prometheus", "FIREDRILL_PROMETHEUS", "prometheus");
    Path v3 = Stacks.unpacked("prometheus", "3.", "prometheus");
    try (GeneratedExporter exporter = GeneratedExporter.start(() -> clock.now().toEpochMilli())) {
      String config = config(exporter.target());
      List<Pair> pairs = new ArrayList<>();
      try {
        // Both pairs at once, on one exporter: the same samples, and one wait for the data.
        pairs.add(start(dir, config, "2.42 / --compat 2", v2, 2, List.of(), List.of()));
        pairs.add(
            start(
                dir,
                config,
                "3.5 / --compat 3",
                v3,
                3,
                // Duration expressions are behind a feature flag in 3.5 (on by default later).
                List.of("--enable-feature=promql-duration-expr"),
                QueryCorpus.prometheus3()));
        for (Pair pair : pairs) {
          awaitScraping(pair.real().url(), pair.embedded(), Duration.ofSeconds(30));
        }
        Instant dataStart = Instant.ofEpochMilli(exporter.startData());

        // 36 s of data: the vanishing series is gone (it stops after 30 s), the late one has come.
        clock.sleep(Duration.ofSeconds(36));
        Instant faultStart = Instant.ofEpochMilli(exporter.startFault());
        Map<Pair, Map<String, AlertTimes>> realAlerts = new LinkedHashMap<>();
        Map<Pair, Map<String, AlertTimes>> embeddedAlerts = new LinkedHashMap<>();
        for (Pair pair : pairs) {
          awaitFiring(pair.real().url(), pair.embedded(), Duration.ofSeconds(45));
          Map<String, AlertTimes> real = new LinkedHashMap<>();
          Map<String, AlertTimes> embedded = new LinkedHashMap<>();
          for (String alert : FAULT_ALERTS) {
            real.put(alert, alertTimes(pair.real().url(), alert));
            embedded.put(alert, alertTimes(pair.embedded(), alert));
          }
          realAlerts.put(pair, real);
          embeddedAlerts.put(pair, embedded);
        }

        List<String> generated = QueryCorpus.generate();
        List<String> project = ProjectExpressions.all();
        double end = seconds(clock.now().minusMillis(2_500));
        double[] instants = {
          end, end - 7.25, end - 13.5, seconds(faultStart) + 3.3, seconds(dataStart) + 31.0
        };
        List<String> differences = new ArrayList<>();
        int compared = 0;
        for (Pair pair : pairs) {
          List<String> queries = new ArrayList<>(generated);
          queries.addAll(project);
          queries.addAll(pair.extraQueries());
          int before = differences.size();
          int comparedBefore = compared;
          for (String query : queries) {
            for (double at : instants) {
              String params = "query=" + encode(query) + "&time=" + format(at);
              compare("/api/v1/query?" + params, pair, query + " at " + format(at), differences);
              compared++;
            }
            String range =
                "query="
                    + encode(query)
                    + "&start="
                    + format(end - 60)
                    + "&end="
                    + format(end)
                    + "&step=5";
            compare("/api/v1/query_range?" + range, pair, query + " over 60s", differences);
            compared++;
          }
          System.out.printf(
              Locale.ROOT,
              "differential %s: %d expressions (%d generated, %d from rules and dashboards,"
                  + " %d of this version's own), %d comparisons, %d differences%n",
              pair.name(),
              queries.size(),
              generated.size(),
              project.size(),
              pair.extraQueries().size(),
              compared - comparedBefore,
              differences.size() - before);
          for (String alert : FAULT_ALERTS) {
            AlertTimes r = realAlerts.get(pair).get(alert);
            AlertTimes e = embeddedAlerts.get(pair).get(alert);
            System.out.printf(
                Locale.ROOT,
                "differential %s: %s activeAt real %s embedded %s (%+d ms), firing real %s"
                    + " embedded %s (%+d ms)%n",
                pair.name(),
                alert,
                r.activeAt(),
                e.activeAt(),
                Duration.between(r.activeAt(), e.activeAt()).toMillis(),
                r.firing(),
                e.firing(),
                Duration.between(r.firing(), e.firing()).toMillis());
          }
        }
        assertThat(project.size())
            .as("expressions from the rule files and dashboards")
            .isGreaterThan(20);
        assertThat(generated.size()).as("generated expressions").isGreaterThanOrEqualTo(500);
        Path report = Path.of("target", "differential-differences.txt");
        Files.createDirectories(report.getParent());
        Files.write(report, differences);
        if (!differences.isEmpty()) {
          fail(
              differences.size()
                  + " of "
                  + compared
                  + " answers differ (all in "
                  + report
                  + "); the first 20:\n"
                  + String.join("\n", differences.subList(0, Math.min(20, differences.size()))));
        }
        // Zero differences on the quoted names means something only if both scraped them.
        Pair three = pairs.get(1);
        String quoted = "/api/v1/query?query=" + encode("count({\"diff.utf8.requests_total\"})");
        for (URI server : List.of(three.real().url(), three.embedded())) {
          assertThat(get(server, quoted).at("/data/result/0/value/1").asText())
              .as(server + " scraped the series with quoted UTF-8 names")
              .isEqualTo("2");
        }
        Duration tolerance = INTERVAL.plus(INTERVAL);
        for (Pair pair : pairs) {
          for (String alert : FAULT_ALERTS) {
            AlertTimes r = realAlerts.get(pair).get(alert);
            AlertTimes e = embeddedAlerts.get(pair).get(alert);
            assertThat(Duration.between(r.activeAt(), e.activeAt()).abs())
                .as(pair.name() + " " + alert + " activeAt")
                .isLessThanOrEqualTo(tolerance);
            assertThat(Duration.between(r.firing(), e.firing()).abs())
                .as(pair.name() + " " + alert + " firing")
                .isLessThanOrEqualTo(tolerance);
          }
        }
      } finally {
        for (Pair pair : pairs) {
          FiredrillJar.stop(pair.embeddedProcess());
          pair.real().close();
        }
      }
    }
  }

  /**
   * The real {@code binary} and the embedded Prometheus in mode {@code compat}, each in its dir.
   */
  private Pair start(
      Path dir,
      String config,
      String name,
      Path binary,
      int compat,
      List<String> binaryFlags,
      List<String> extraQueries)
      throws IOException, InterruptedException {
    Path realDir = Files.createDirectories(dir.resolve("real-" + compat));
    Path embeddedDir = Files.createDirectories(dir.resolve("embedded-" + compat));
    for (Path target : List.of(realDir, embeddedDir)) {
      Files.copy(RECORDING_RULES, target.resolve("recording-rules.yml"));
      Files.copy(LAB_ALERTS, target.resolve("lab-alerts.yml"));
    }
    Files.writeString(embeddedDir.resolve("prometheus.yml"), config);
    FiredrillJar.Prometheus started =
        FiredrillJar.startPrometheus(embeddedDir, embeddedDir.resolve("prometheus.yml"), compat);
    URI embeddedUrl = started.url();
    Process embedded = started.process();
    try {
      LocalPrometheus real =
          LocalPrometheus.start(
              new Runner.Binary(binary),
              Loopback.freePort(),
              config,
              realDir,
              false,
              clock,
              binaryFlags);
      return new Pair(name, real, embeddedUrl, embedded, extraQueries);
    } catch (RuntimeException e) {
      FiredrillJar.stop(embedded);
      throw e;
    }
  }

  /** When an alert became active, and the evaluation whose ALERTS sample first said firing. */
  record AlertTimes(Instant activeAt, Instant firing) {}

  private static String config(String target) {
    return LocalPrometheus.global()
        + "rule_files:\n  - recording-rules.yml\n  - lab-alerts.yml\n"
        + "scrape_configs:\n  - job_name: generated\n    static_configs:\n      - targets: ['"
        + target
        + "']\n";
  }

  private void compare(String pathAndQuery, Pair pair, String what, List<String> differences)
      throws IOException, InterruptedException {
    JsonNode realAnswer = get(pair.real().url(), pathAndQuery);
    JsonNode embeddedAnswer = get(pair.embedded(), pathAndQuery);
    Optional<String> difference = ResultComparison.difference(realAnswer, embeddedAnswer);
    difference.ifPresent(d -> differences.add(pair.name() + ": " + what + ": " + d));
  }

  /** Waits until both servers have scraped the (still empty) exporter once. */
  private void awaitScraping(URI real, URI embedded, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = clock.nanoTime() + timeout.toNanos();
    for (URI url : List.of(real, embedded)) {
      while (get(url, "/api/v1/query?query=" + encode("up == 1")).path("data").path("result").size()
          != 1) {
        if (clock.nanoTime() - deadline > 0) {
          fail(url + " did not scrape the exporter within " + timeout.toSeconds() + "s");
        }
        clock.sleep(Duration.ofMillis(200));
      }
    }
  }

  private void awaitFiring(URI real, URI embedded, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = clock.nanoTime() + timeout.toNanos();
    while (true) {
      List<String> missing = new ArrayList<>();
      for (URI url : List.of(real, embedded)) {
        JsonNode alerts = get(url, "/api/v1/alerts").path("data").path("alerts");
        for (String name : FAULT_ALERTS) {
          boolean firing = false;
          for (JsonNode alert : alerts) {
            firing |=
                alert.path("labels").path("alertname").asText().equals(name)
                    && alert.path("state").asText().equals("firing");
          }
          if (!firing) {
            missing.add(name + " on " + (url.equals(real) ? "real" : "embedded"));
          }
        }
      }
      if (missing.isEmpty()) {
        return;
      }
      if (clock.nanoTime() - deadline > 0) {
        fail("not firing within " + timeout.toSeconds() + "s of the fault: " + missing);
      }
      clock.sleep(Duration.ofMillis(200));
    }
  }

  private AlertTimes alertTimes(URI url, String alert) throws IOException, InterruptedException {
    Instant activeAt = null;
    for (JsonNode a : get(url, "/api/v1/alerts").path("data").path("alerts")) {
      if (a.path("labels").path("alertname").asText().equals(alert)) {
        activeAt = Instant.parse(a.path("activeAt").asText());
      }
    }
    String query = "ALERTS{alertname=\"" + alert + "\",alertstate=\"firing\"}[2m]";
    JsonNode result = get(url, "/api/v1/query?query=" + encode(query)).path("data").path("result");
    assertThat(activeAt).as(alert + " in " + url + "/api/v1/alerts").isNotNull();
    assertThat(result.size()).as(query + " on " + url).isEqualTo(1);
    double firstFiring = result.get(0).path("values").get(0).get(0).asDouble();
    return new AlertTimes(activeAt, Instant.ofEpochMilli(Math.round(firstFiring * 1000)));
  }

  private JsonNode get(URI base, String pathAndQuery) throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(base + pathAndQuery))
            .timeout(Duration.ofSeconds(10))
            .build();
    return JSON.readTree(http.send(request, HttpResponse.BodyHandlers.ofString()).body());
  }

  private static double seconds(Instant instant) {
    return instant.toEpochMilli() / 1000.0;
  }

  private static String format(double seconds) {
    return String.format(Locale.ROOT, "%.3f", seconds);
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
