package dev.firedrill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.firedrill.lab.stack.LocalPrometheus;
import dev.firedrill.net.Loopback;
import dev.firedrill.testing.FiredrillJar;
import dev.firedrill.testing.RequiredBinary;
import dev.firedrill.testing.Stacks;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 7's benchmark: the embedded Prometheus ({@code firedrill prometheus}, a child JVM) against
 * the real {@code prometheus} 2.42 (in {@code --compat 2}) and the real 3.5 (in {@code --compat
 * 3}), one pair after the other in the same run, on the same SLO rules over {@value #SERIES} series
 * with an hour of samples at 15 s. Each server scrapes the exporter on its own cursor: every scrape
 * hands it the next 15 s of the past hour, so both hold the same {@value #STEPS} samples per series
 * after {@value #STEPS} scrapes (the hour runs from 50 minutes ago to 10 minutes ahead). Figures:
 * rule-group evaluation time per cycle (the servers' own {@code evaluationTime}), instant-query
 * latency of the SLO queries, range-query latency over the hour at 15 s steps, and heap per series
 * (Go's heap in use for Prometheus, the JVM's heap after a GC for firedrill); each with the ratio
 * embedded/real (issue 19's target: at most 1 against 3.5), and 3.5's own figures against 2.42's.
 *
 * <p>Run with {@code bin/bench EmbeddedPrometheusBenchmark}.
 */
class EmbeddedPrometheusBenchmark {

  static final int SERIES = 10_000;
  static final int STEPS = 240;
  private static final long STEP_MS = 15_000;
  private static final int QUERY_RUNS = 30;
  private static final int RANGE_RUNS = 8;
  private static final List<String> SLO_QUERIES =
      List.of(
          "sum by (service) (rate(bench_requests_total{code=~\"5..\"}[5m])) / sum by (service) (rate(bench_requests_total[5m]))",
          "sum by (service) (rate(bench_requests_total[5m]))",
          "sum by (service, route) (increase(bench_requests_total{code=\"500\"}[1h]))",
          "histogram_quantile(0.99, sum by (service, le) (rate(bench_latency_seconds_bucket[5m])))");
  private static final String RULES =
      """
      groups:
        - name: bench-slo
          rules:
            - record: service:bench_requests:rate5m
              expr: sum by (service) (rate(bench_requests_total[5m]))
            - record: service:bench_errors:rate5m
              expr: sum by (service) (rate(bench_requests_total{code=~"5.."}[5m]))
            - record: service:bench_error_ratio:rate5m
              expr: service:bench_errors:rate5m / service:bench_requests:rate5m
            - record: route:bench_requests:rate1h
              expr: sum by (service, route) (rate(bench_requests_total[1h]))
            - record: service:bench_latency:p99_5m
              expr: histogram_quantile(0.99, sum by (service, le) (rate(bench_latency_seconds_bucket[5m])))
            - alert: BenchErrorBudgetBurn
              expr: service:bench_error_ratio:rate5m > 14.4 * 0.001
      """;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final Clock clock = Clock.system();

  /** One pair's figures: each as {real, embedded}, and the real server's version. */
  private record PairFigures(String version, Map<String, double[]> figures) {}

  @Test
  void embeddedAgainstRealPrometheusAtTenThousandSeries(@TempDir Path dir) throws Exception {
    Path v2 = RequiredBinary.find("prometheus", "FIREDRILL_PROMETHEUS", "prometheus");
    Path v3 = Stacks.unpacked("prometheus", "3.", "prometheus");
    // One pair after the other, so neither pair's servers compete with the other's for the CPU.
    PairFigures two = measure(dir.resolve("v2"), v2, 2);
    PairFigures three = measure(dir.resolve("v3"), v3, 3);
    BenchReport report = new BenchReport("embedded-prometheus");
    report.line(
        "%d series (%d counters, %d histogram buckets), %d samples each at 15 s (one hour);"
            + " real %s beside --compat 2, real %s beside --compat 3",
        SERIES,
        CursorExporter.COUNTERS,
        SERIES - CursorExporter.COUNTERS,
        STEPS,
        two.version(),
        three.version());
    for (PairFigures pair : List.of(two, three)) {
      String worst = null;
      double worstRatio = 0;
      for (Map.Entry<String, double[]> figure : pair.figures().entrySet()) {
        double[] values = figure.getValue();
        double ratio = values[1] / values[0];
        report.line(
            "%-8s %-48s real %10.2f  embedded %10.2f  ratio %5.2f %s",
            pair.version(),
            figure.getKey(),
            values[0],
            values[1],
            ratio,
            ratio <= 1 ? "(at most 1x)" : ratio <= 2 ? "(within 2x)" : "(OVER 2x)");
        if (ratio > worstRatio) {
          worstRatio = ratio;
          worst = figure.getKey();
        }
      }
      report.line("%-8s bottleneck: %s (ratio %.2f)", pair.version(), worst, worstRatio);
    }
    for (String figure : three.figures().keySet()) {
      report.line(
          "real %s / real %s, %-40s %5.2f",
          three.version(),
          two.version(),
          figure,
          three.figures().get(figure)[0] / two.figures().get(figure)[0]);
    }
    report.finish();
  }

  /** The real {@code binary} and {@code firedrill prometheus --compat N} on one exporter. */
  private PairFigures measure(Path dir, Path binary, int compat) throws Exception {
    // Prometheus refuses samples more than an hour older than its newest (its own `up` is "now"),
    // so the hour starts 50 minutes ago and ends 10 minutes ahead; queries name their time.
    long firstStepMs =
        (clock.now().toEpochMilli() - Duration.ofMinutes(50).toMillis()) / STEP_MS * STEP_MS;
    try (CursorExporter exporter = new CursorExporter(firstStepMs)) {
      String config =
          "global:\n  scrape_interval: 250ms\n  scrape_timeout: 250ms\n  evaluation_interval: 1s\n"
              + "rule_files:\n  - bench-rules.yml\n"
              + "scrape_configs:\n  - job_name: bench\n    static_configs:\n      - targets: ['"
              + exporter.target()
              + "']\n";
      Path realDir = Files.createDirectories(dir.resolve("real"));
      Path embeddedDir = Files.createDirectories(dir.resolve("embedded"));
      Files.writeString(realDir.resolve("bench-rules.yml"), RULES);
      Files.writeString(embeddedDir.resolve("bench-rules.yml"), RULES);
      Files.writeString(embeddedDir.resolve("prometheus.yml"), config);
      FiredrillJar.Prometheus started =
          FiredrillJar.startPrometheus(embeddedDir, embeddedDir.resolve("prometheus.yml"), compat);
      URI embeddedUrl = started.url();
      Process embedded = started.process();
      try (LocalPrometheus real =
          LocalPrometheus.start(binary, Loopback.freePort(), config, realDir, false, clock)) {
        URI realUrl = real.url();
        double realHeapBefore = goHeapInUse(realUrl);
        double embeddedHeapBefore = jvmHeapUsed(embedded.pid());
        exporter.serveData();
        awaitAllSteps(exporter, Duration.ofMinutes(4));
        String lastTimestamp = String.valueOf((firstStepMs + (STEPS - 1) * STEP_MS) / 1000.0);
        for (URI url : List.of(realUrl, embeddedUrl)) {
          JsonNode count =
              get(
                  url,
                  "/api/v1/query?query="
                      + encode("count({__name__=~\"bench_.*\"})")
                      + "&time="
                      + lastTimestamp);
          assertThat(count.path("data").path("result").get(0).path("value").get(1).asText())
              .as("series held by " + url)
              .isEqualTo(String.valueOf(SERIES));
        }
        clock.sleep(Duration.ofSeconds(3));

        Map<String, double[]> figures = new LinkedHashMap<>();
        figures.put(
            "rule group evaluation per cycle (ms)",
            new double[] {ruleEvaluationMs(realUrl), ruleEvaluationMs(embeddedUrl)});
        for (int i = 0; i < SLO_QUERIES.size(); i++) {
          String query =
              "/api/v1/query?query=" + encode(SLO_QUERIES.get(i)) + "&time=" + lastTimestamp;
          figures.put(
              "instant SLO query " + (i + 1) + " p50 (ms)",
              new double[] {
                latencyMs(realUrl, query, QUERY_RUNS), latencyMs(embeddedUrl, query, QUERY_RUNS)
              });
        }
        for (int i = 0; i < 2; i++) {
          String query =
              "/api/v1/query_range?query="
                  + encode(SLO_QUERIES.get(i))
                  + "&start="
                  + (firstStepMs / 1000.0)
                  + "&end="
                  + lastTimestamp
                  + "&step=15";
          figures.put(
              "range query " + (i + 1) + ", 1 h at 15 s, p50 (ms)",
              new double[] {
                latencyMs(realUrl, query, RANGE_RUNS), latencyMs(embeddedUrl, query, RANGE_RUNS)
              });
        }
        figures.put(
            "heap per series, " + STEPS + " samples each (bytes)",
            new double[] {
              (goHeapInUse(realUrl) - realHeapBefore) / SERIES,
              (jvmHeapUsed(embedded.pid()) - embeddedHeapBefore) / SERIES
            });
        return new PairFigures(version(realUrl), figures);
      } finally {
        FiredrillJar.stop(embedded);
      }
    }
  }

  private void awaitAllSteps(CursorExporter exporter, Duration timeout)
      throws InterruptedException {
    long deadline = clock.nanoTime() + timeout.toNanos();
    while (!exporter.everyClientDone(2)) {
      if (clock.nanoTime() - deadline > 0) {
        fail(
            "the servers did not scrape all "
                + STEPS
                + " steps within "
                + timeout.toSeconds()
                + "s: "
                + exporter.cursors);
      }
      clock.sleep(Duration.ofMillis(500));
    }
  }

  /** The median of the group's evaluationTime over ten cycles. */
  private double ruleEvaluationMs(URI url) throws IOException, InterruptedException {
    List<Double> times = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      JsonNode groups = get(url, "/api/v1/rules").path("data").path("groups");
      times.add(groups.get(0).path("evaluationTime").asDouble() * 1000);
      clock.sleep(Duration.ofMillis(1_100));
    }
    return BenchReport.median(times);
  }

  private double latencyMs(URI url, String pathAndQuery, int runs)
      throws IOException, InterruptedException {
    get(url, pathAndQuery);
    List<Double> times = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      long start = clock.nanoTime();
      JsonNode answer = get(url, pathAndQuery);
      times.add((clock.nanoTime() - start) / 1e6);
      assertThat(answer.path("status").asText())
          .as(url + pathAndQuery + ": " + answer)
          .isEqualTo("success");
    }
    return BenchReport.median(times);
  }

  private double goHeapInUse(URI url) throws IOException, InterruptedException {
    String metrics =
        http.send(
                HttpRequest.newBuilder(url.resolve("/metrics")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    for (String line : metrics.split("\n")) {
      if (line.startsWith("go_memstats_heap_inuse_bytes ")) {
        return Double.parseDouble(line.substring(line.indexOf(' ') + 1).trim());
      }
    }
    return fail("no go_memstats_heap_inuse_bytes in " + url + "/metrics");
  }

  /**
   * The child JVM's heap in use after a full GC, from {@code jcmd}: both commands in one attach, as
   * a second jcmd's JVM takes a second or more to start and the child meanwhile parses a scrape of
   * 10,000 series every 250 ms, which would be counted as heap.
   */
  private static double jvmHeapUsed(long pid) throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Path commands = Files.createTempFile("heap", ".jcmd");
    try {
      Files.writeString(commands, "GC.run\nGC.heap_info\n");
      String info = run(List.of(jcmd.toString(), String.valueOf(pid), "-f", commands.toString()));
      Matcher used = HEAP_USED.matcher(info);
      if (!used.find()) {
        return fail("no heap use in jcmd GC.heap_info: " + info);
      }
      return Long.parseLong(used.group(1)) * 1024.0;
    } finally {
      Files.delete(commands);
    }
  }

  private static String run(List<String> command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
      return fail(command + " failed: " + output);
    }
    return output;
  }

  private String version(URI url) throws IOException, InterruptedException {
    return get(url, "/api/v1/status/buildinfo").path("data").path("version").asText();
  }

  private JsonNode get(URI base, String pathAndQuery) throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(base + pathAndQuery))
            .timeout(Duration.ofSeconds(60))
            .build();
    return JSON.readTree(http.send(request, HttpResponse.BodyHandlers.ofString()).body());
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  /**
   * Serves each client (told apart by User-Agent) the next 15 s step of the past hour at each
   * scrape, and the last step again once all {@value #STEPS} are out; nothing until {@link
   * #serveData}, so the servers' heap can be read empty first.
   */
  static final class CursorExporter implements AutoCloseable {

    static final int COUNTERS = 8_800;
    private static final double[] BUCKETS = {
      0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
    };

    private final HttpServer server;
    private final long firstStepMs;
    final Map<String, Integer> cursors = new ConcurrentHashMap<>();
    private volatile boolean serving;

    CursorExporter(long firstStepMs) throws IOException {
      this.firstStepMs = firstStepMs;
      this.server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext("/metrics", this::serve);
      server.start();
    }

    String target() {
      return "127.0.0.1:" + server.getAddress().getPort();
    }

    void serveData() {
      serving = true;
    }

    boolean everyClientDone(int clients) {
      return cursors.size() >= clients && cursors.values().stream().allMatch(c -> c >= STEPS);
    }

    private void serve(HttpExchange exchange) throws IOException {
      String client = String.valueOf(exchange.getRequestHeaders().getFirst("User-Agent"));
      byte[] body = new byte[0];
      if (serving) {
        int step = cursors.merge(client, 1, Integer::sum);
        body = exposition(Math.min(step, STEPS) - 1).getBytes(StandardCharsets.UTF_8);
      }
      exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
      exchange.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }

    /**
     * 10 services × 22 routes × 4 codes × 10 pods counters, and 10 services × 10 pods × 12 buckets.
     */
    private String exposition(int step) {
      long ts = firstStepMs + step * STEP_MS;
      StringBuilder out = new StringBuilder(1 << 20);
      String[] codes = {"200", "404", "500", "503"};
      int i = 0;
      for (int service = 0; service < 10; service++) {
        for (int route = 0; route < 22; route++) {
          for (String code : codes) {
            for (int pod = 0; pod < 10; pod++) {
              long value = (long) step * (1 + i % 7) * (code.equals("200") ? 50 : 1) + i % 3;
              out.append("bench_requests_total{service=\"s")
                  .append(service)
                  .append("\",route=\"/r")
                  .append(route)
                  .append("\",code=\"")
                  .append(code)
                  .append("\",pod=\"p")
                  .append(pod)
                  .append("\"} ")
                  .append(value)
                  .append(' ')
                  .append(ts)
                  .append('\n');
              i++;
            }
          }
        }
      }
      for (int service = 0; service < 10; service++) {
        for (int pod = 0; pod < 10; pod++) {
          long cumulative = 0;
          for (int b = 0; b <= BUCKETS.length; b++) {
            cumulative += (long) step * (12 - b) * (1 + (service + pod) % 3);
            String le = b == BUCKETS.length ? "+Inf" : String.valueOf(BUCKETS[b]);
            out.append("bench_latency_seconds_bucket{service=\"s")
                .append(service)
                .append("\",pod=\"p")
                .append(pod)
                .append("\",le=\"")
                .append(le)
                .append("\"} ")
                .append(cumulative)
                .append(' ')
                .append(ts)
                .append('\n');
          }
        }
      }
      return out.toString();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}
