package dev.firedrill.embedded.differential;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.lab.stack.LocalPrometheus;
import dev.firedrill.net.Loopback;
import dev.firedrill.testing.FiredrillJar;
import dev.firedrill.testing.RequiredBinary;
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
 * Issue 7's differential test: the real {@code prometheus} and the embedded one (run as users run
 * it, {@code firedrill prometheus}) scrape the same {@link GeneratedExporter} for the same minutes
 * and evaluate the same rule files. Every sample carries an explicit timestamp and changes less
 * often than the scrape interval, so both hold identical samples; then the same queries (the
 * generated corpus, and every expression of the rule files and dashboards with recording rules
 * written out) must give the same answers as instant and range queries, and the alerts a fault
 * triggers must become active and fire within one evaluation interval (plus one scrape interval) of
 * each other.
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

  @Test
  void bothServersAnswerEveryQueryAlikeAndFireTheFaultsAlertsAtTheSameEvaluations(@TempDir Path dir)
      throws Exception {
    Path binary = RequiredBinary.find("prometheus", "FIREDRILL_PROMETHEUS", "prometheus");
    try (GeneratedExporter exporter = GeneratedExporter.start(() -> clock.now().toEpochMilli())) {
      String config = config(exporter.target());
      Path realDir = Files.createDirectories(dir.resolve("real"));
      Path embeddedDir = Files.createDirectories(dir.resolve("embedded"));
      for (Path target : List.of(realDir, embeddedDir)) {
        Files.copy(RECORDING_RULES, target.resolve("recording-rules.yml"));
        Files.copy(LAB_ALERTS, target.resolve("lab-alerts.yml"));
      }
      Files.writeString(embeddedDir.resolve("prometheus.yml"), config);
      int embeddedPort = Loopback.freePort();
      URI embeddedUrl = URI.create("http://127.0.0.1:" + embeddedPort);
      Process embedded =
          FiredrillJar.startServer(
              embeddedDir,
              embeddedUrl,
              "prometheus",
              "--config",
              embeddedDir.resolve("prometheus.yml").toString(),
              "--listen",
              "127.0.0.1:" + embeddedPort,
              // The real binary here is a v2.42: the embedded one answers as Prometheus 2.
              "--compat",
              "2");
      try (LocalPrometheus real =
          LocalPrometheus.start(binary, Loopback.freePort(), config, realDir, false, clock)) {
        awaitScraping(real.url(), embeddedUrl, Duration.ofSeconds(30));
        Instant dataStart = Instant.ofEpochMilli(exporter.startData());

        // 36 s of data: the vanishing series is gone (it stops after 30 s), the late one has come.
        clock.sleep(Duration.ofSeconds(36));
        Instant faultStart = Instant.ofEpochMilli(exporter.startFault());
        Map<String, AlertTimes> realAlerts = new LinkedHashMap<>();
        Map<String, AlertTimes> embeddedAlerts = new LinkedHashMap<>();
        awaitFiring(real.url(), embeddedUrl, Duration.ofSeconds(45));
        for (String alert : FAULT_ALERTS) {
          realAlerts.put(alert, alertTimes(real.url(), alert));
          embeddedAlerts.put(alert, alertTimes(embeddedUrl, alert));
        }

        List<String> queries = new ArrayList<>(QueryCorpus.generate());
        int corpusSize = queries.size();
        queries.addAll(ProjectExpressions.all());
        double end = seconds(clock.now().minusMillis(2_500));
        double[] instants = {
          end, end - 7.25, end - 13.5, seconds(faultStart) + 3.3, seconds(dataStart) + 31.0
        };
        List<String> differences = new ArrayList<>();
        int compared = 0;
        for (String query : queries) {
          for (double at : instants) {
            String params = "query=" + encode(query) + "&time=" + format(at);
            compare(
                "/api/v1/query?" + params,
                real.url(),
                embeddedUrl,
                query + " at " + format(at),
                differences);
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
          compare(
              "/api/v1/query_range?" + range,
              real.url(),
              embeddedUrl,
              query + " over 60s",
              differences);
          compared++;
        }

        System.out.printf(
            Locale.ROOT,
            "differential: %d expressions (%d generated, %d from rules and dashboards),"
                + " %d comparisons, %d differences%n",
            queries.size(),
            corpusSize,
            queries.size() - corpusSize,
            compared,
            differences.size());
        for (String alert : FAULT_ALERTS) {
          AlertTimes r = realAlerts.get(alert);
          AlertTimes e = embeddedAlerts.get(alert);
          System.out.printf(
              Locale.ROOT,
              "differential: %s activeAt real %s embedded %s (%+d ms), firing real %s"
                  + " embedded %s (%+d ms)%n",
              alert,
              r.activeAt(),
              e.activeAt(),
              Duration.between(r.activeAt(), e.activeAt()).toMillis(),
              r.firing(),
              e.firing(),
              Duration.between(r.firing(), e.firing()).toMillis());
        }
        assertThat(queries.size() - corpusSize)
            .as("expressions from the rule files and dashboards")
            .isGreaterThan(20);
        assertThat(corpusSize).as("generated expressions").isGreaterThanOrEqualTo(500);
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
        Duration tolerance = INTERVAL.plus(INTERVAL);
        for (String alert : FAULT_ALERTS) {
          AlertTimes r = realAlerts.get(alert);
          AlertTimes e = embeddedAlerts.get(alert);
          assertThat(Duration.between(r.activeAt(), e.activeAt()).abs())
              .as(alert + " activeAt")
              .isLessThanOrEqualTo(tolerance);
          assertThat(Duration.between(r.firing(), e.firing()).abs())
              .as(alert + " firing")
              .isLessThanOrEqualTo(tolerance);
        }
      } finally {
        FiredrillJar.stop(embedded);
      }
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

  private void compare(
      String pathAndQuery, URI real, URI embedded, String what, List<String> differences)
      throws IOException, InterruptedException {
    JsonNode realAnswer = get(real, pathAndQuery);
    JsonNode embeddedAnswer = get(embedded, pathAndQuery);
    Optional<String> difference = ResultComparison.difference(realAnswer, embeddedAnswer);
    difference.ifPresent(d -> differences.add(what + ": " + d));
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
