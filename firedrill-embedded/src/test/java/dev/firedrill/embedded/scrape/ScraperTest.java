package dev.firedrill.embedded.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.firedrill.embedded.storage.MemoryStorage;
import dev.firedrill.promconfig.ScrapeConfig;
import dev.firedrill.promconfig.StaticConfig;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.StaleNaN;
import dev.firedrill.promql.model.StoredSeries;
import dev.firedrill.testing.StubHttpServer;
import dev.firedrill.time.VirtualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ScraperTest {

  private static final String TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final StubHttpServer exporter = StubHttpServer.start();
  private final MemoryStorage storage = new MemoryStorage();
  private final VirtualClock clock = VirtualClock.at("2026-01-01T00:00:00Z");
  private final Scraper scraper = new Scraper(storage, clock);

  @AfterEach
  void stop() {
    exporter.close();
  }

  private ScrapeTarget target(int port, boolean honorLabels, Duration timeout) {
    ScrapeConfig job =
        new ScrapeConfig(
            "node",
            Duration.ofSeconds(15),
            timeout,
            "/metrics",
            "http",
            honorLabels,
            List.of(new StaticConfig(List.of("127.0.0.1:" + port), LabelSet.of("zone", "eu"))));
    ScrapeTarget target = ScrapeTarget.of(job).get(0);
    scraper.sync(List.of(target), 0);
    return target;
  }

  private ScrapeTarget target() {
    return target(exporter.port(), false, Duration.ofSeconds(5));
  }

  /** Every stored series as "labels -> t=v t=v", staleness markers shown as "stale". */
  private Map<String, String> stored(LabelMatcher... matchers) {
    Map<String, String> out = new LinkedHashMap<>();
    for (StoredSeries s : storage.select(List.of(matchers), Long.MIN_VALUE, Long.MAX_VALUE)) {
      List<String> samples = new ArrayList<>();
      for (int i = 0; i < s.count(); i++) {
        double v = s.values()[i];
        samples.add(s.timestamps()[i] + "=" + (StaleNaN.is(v) ? "stale" : Double.toString(v)));
      }
      out.put(
          s.labels()
              .withoutMetricName()
              .toString()
              .replace("127.0.0.1:" + exporter.port(), "ADDR")
              .replaceFirst("^", s.labels().metricName()),
          String.join(" ", samples));
    }
    return out;
  }

  private static LabelMatcher name(String metric) {
    return LabelMatcher.of(LabelMatcher.Type.EQUAL, "__name__", metric);
  }

  @Test
  void appendsSamplesWithTargetLabelsAndReportSeries() throws Exception {
    exporter.respond(
        200,
        TEXT,
        """
        # TYPE http_requests_total counter
        http_requests_total{code="200"} 10
        temperature{room="a b \\"c\\""} -3.5
        """);
    ScrapeTarget target = target();

    ScrapeReport report = scraper.scrapeOnce(target, 15_000);

    assertThat(report).isEqualTo(new ScrapeReport(target, 15_000, 0.0, 2, 2, null));
    assertThat(stored())
        .containsExactly(
            Map.entry(
                "http_requests_total{code=\"200\", instance=\"ADDR\", job=\"node\", zone=\"eu\"}",
                "15000=10.0"),
            Map.entry(
                "scrape_duration_seconds{instance=\"ADDR\", job=\"node\", zone=\"eu\"}",
                "15000=0.0"),
            Map.entry(
                "scrape_samples_post_metric_relabeling{instance=\"ADDR\", job=\"node\", zone=\"eu\"}",
                "15000=2.0"),
            Map.entry(
                "scrape_samples_scraped{instance=\"ADDR\", job=\"node\", zone=\"eu\"}",
                "15000=2.0"),
            Map.entry(
                "scrape_series_added{instance=\"ADDR\", job=\"node\", zone=\"eu\"}", "15000=2.0"),
            Map.entry(
                "temperature{instance=\"ADDR\", job=\"node\", room=\"a b \\\"c\\\"\", zone=\"eu\"}",
                "15000=-3.5"),
            Map.entry("up{instance=\"ADDR\", job=\"node\", zone=\"eu\"}", "15000=1.0"));
    StubHttpServer.Request request = exporter.lastRequest();
    assertThat(request.path()).isEqualTo("/metrics");
    assertThat(request.headers())
        .containsEntry(
            "accept",
            "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;"
                + "q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1")
        .containsEntry("x-prometheus-scrape-timeout-seconds", "5.0");
  }

  @Test
  void asPrometheus3AsksForUtf8NamesAndStoresTheQuotedOnes() throws Exception {
    exporter.respond(
        200,
        TEXT,
        """
        # TYPE "http.requests" counter
        {"http.requests","service.name"="api"} 7
        """);
    Scraper three = new Scraper(storage, clock, Compat.PROMETHEUS_3);
    ScrapeTarget target = target();
    three.sync(List.of(target), 0);

    ScrapeReport report = three.scrapeOnce(target, 15_000);

    assertThat(report.error()).isNull();
    assertThat(stored(name("http.requests")))
        .containsExactly(
            Map.entry(
                "http.requests{instance=\"ADDR\", job=\"node\", service.name=\"api\","
                    + " zone=\"eu\"}",
                "15000=7.0"));
    // As Prometheus 3.5.3 asks (captured from the real binary).
    assertThat(exporter.lastRequest().headers())
        .containsEntry(
            "accept",
            "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.6,"
                + "application/openmetrics-text;version=0.0.1;q=0.5,"
                + "text/plain;version=1.0.0;escaping=allow-utf-8;q=0.4,"
                + "text/plain;version=0.0.4;q=0.3,*/*;q=0.2");
  }

  @Test
  void seriesThatVanishGetStalenessMarkersAndNewOnesAreCounted() throws Exception {
    ScrapeTarget target = target();
    exporter.respond(200, TEXT, "a 1\nb{x=\"1\"} 2\n");
    scraper.scrapeOnce(target, 15_000);
    exporter.respond(200, TEXT, "a 3\nc 4\n");

    ScrapeReport report = scraper.scrapeOnce(target, 30_000);

    assertThat(report.seriesAdded()).isEqualTo(1);
    assertThat(stored(name("a"))).containsValue("15000=1.0 30000=3.0");
    assertThat(stored(name("b"))).containsValue("15000=2.0 30000=stale");
    assertThat(stored(name("c"))).containsValue("30000=4.0");
    assertThat(stored(name("scrape_series_added"))).containsValue("15000=2.0 30000=1.0");
  }

  @Test
  void aDeadTargetIsDownAndItsSeriesGoStale() throws Exception {
    ScrapeTarget live = target();
    exporter.respond(200, TEXT, "a 1\n");
    scraper.scrapeOnce(live, 15_000);
    exporter.close();

    ScrapeReport report = scraper.scrapeOnce(live, 30_000);

    assertThat(report.up()).isFalse();
    assertThat(report.error())
        .isEqualTo("http://127.0.0.1:" + exporter.port() + "/metrics: connection refused");
    assertThat(stored(name("a"))).containsValue("15000=1.0 30000=stale");
    assertThat(stored(name("up"))).containsValue("15000=1.0 30000=0.0");
    assertThat(stored(name("scrape_samples_scraped"))).containsValue("15000=1.0 30000=0.0");
  }

  @Test
  void aStatusOtherThan200IsAFailedScrape() throws Exception {
    ScrapeTarget target = target();
    exporter.respond(503, TEXT, "a 1\n");
    ScrapeReport report = scraper.scrapeOnce(target, 15_000);
    assertThat(report.error()).isEqualTo(target.url() + ": HTTP status 503 (expected 200)");
    assertThat(stored(name("a"))).isEmpty();
    assertThat(stored(name("up"))).containsValue("15000=0.0");
  }

  @Test
  void anExpositionThatDoesNotParseStoresNothingOfIt() throws Exception {
    ScrapeTarget target = target();
    exporter.respond(200, TEXT, "a 1\n");
    scraper.scrapeOnce(target, 15_000);
    exporter.respond(200, TEXT, "a 2\nb{ 3\n");

    ScrapeReport report = scraper.scrapeOnce(target, 30_000);

    assertThat(report.error())
        .isEqualTo(target.url() + ": line 2: expected a label name or }, found \"3\"");
    assertThat(stored(name("a"))).containsValue("15000=1.0 30000=stale");
    assertThat(stored(name("b"))).isEmpty();
  }

  @Test
  void aTargetThatDoesNotAnswerTimesOut() {
    ScrapeTarget target = target(exporter.port(), false, Duration.ofMillis(300));
    exporter.hang();
    ScrapeReport report =
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> scraper.scrapeOnce(target, 15_000));
    assertThat(report.error())
        .isEqualTo(target.url() + ": no complete response within the scrape timeout 300ms");
    assertThat(stored(name("up"))).containsValue("15000=0.0");
  }

  @Test
  void honorLabelsKeepsExposedLabelsAndWithoutItTheyAreExported() throws Exception {
    exporter.respond(200, TEXT, "m{job=\"batch\",instance=\"pod\"} 1\n");
    ScrapeTarget plain = target();
    scraper.scrapeOnce(plain, 15_000);
    assertThat(stored(name("m")))
        .containsOnlyKeys(
            "m{exported_instance=\"pod\", exported_job=\"batch\", instance=\"ADDR\", job=\"node\", zone=\"eu\"}");

    ScrapeTarget honoring = target(exporter.port(), true, Duration.ofSeconds(5));
    scraper.scrapeOnce(honoring, 30_000);
    assertThat(stored(name("m"), LabelMatcher.of(LabelMatcher.Type.EQUAL, "job", "batch")))
        .containsOnlyKeys("m{instance=\"pod\", job=\"batch\", zone=\"eu\"}");
  }

  @Test
  void explicitTimestampsAreKeptAndNeverMarkedStale() throws Exception {
    ScrapeTarget target = target();
    exporter.respond(200, TEXT, "pushed 7 12000\nlive 1\n");
    scraper.scrapeOnce(target, 15_000);
    exporter.respond(200, TEXT, "live 2\n");
    scraper.scrapeOnce(target, 30_000);
    exporter.respond(500, TEXT, "");
    scraper.scrapeOnce(target, 45_000);

    assertThat(stored(name("pushed"))).containsValue("12000=7.0");
    assertThat(stored(name("live"))).containsValue("15000=1.0 30000=2.0 45000=stale");
  }

  @Test
  void openMetricsTimestampsAreSeconds() throws Exception {
    ScrapeTarget target = target();
    exporter.respond(
        200,
        "application/openmetrics-text; version=1.0.0; charset=utf-8",
        "# TYPE a gauge\na 1 14.5\n# EOF\n");
    scraper.scrapeOnce(target, 15_000);
    assertThat(stored(name("a"))).containsValue("14500=1.0");
  }

  @Test
  void aRemovedTargetsSeriesAllGoStale() throws Exception {
    ScrapeTarget target = target();
    exporter.respond(200, TEXT, "a 1\n");
    scraper.scrapeOnce(target, 15_000);

    scraper.sync(List.of(), 20_000);

    assertThat(scraper.targets()).isEmpty();
    assertThat(stored(name("a"))).containsValue("15000=1.0 20000=stale");
    assertThat(stored(name("up"))).containsValue("15000=1.0 20000=stale");
    assertThat(stored(name("scrape_duration_seconds"))).containsValue("15000=0.0 20000=stale");
  }

  @Test
  void scrapeDueScrapesEachTargetAtItsLatestScheduledTimeInTheWindow() throws Exception {
    ScrapeTarget target = target();
    exporter.respond(200, TEXT, "a 1\n");
    long first = target.nextScrapeAtOrAfter(1_000_000);
    assertThat(first).isBetween(1_000_000L, 1_014_999L);
    assertThat(target.nextScrapeAtOrAfter(first)).isEqualTo(first);
    assertThat(target.nextScrapeAtOrAfter(first + 1)).isEqualTo(first + 15_000);

    assertThat(scraper.scrapeDue(first - 1000, first - 1)).isEmpty();
    assertThat(scraper.scrapeDue(first - 1, first + 44_000))
        .extracting(ScrapeReport::timestampMs)
        .containsExactly(first + 30_000);
    assertThat(scraper.scrapeDue(first + 44_000, first + 45_000))
        .extracting(ScrapeReport::timestampMs)
        .containsExactly(first + 45_000);
  }

  @Test
  void theSchedulerScrapesOnTheClockUntilClosed() throws Exception {
    exporter.respond(200, TEXT, "a 1\n");
    CountDownLatch threeScrapes = new CountDownLatch(3);
    MemoryStorage counted = new MemoryStorage();
    Scraper scraping = new Scraper(new CountingStorage(counted, "up", threeScrapes), clock);
    ScrapeTarget target = target();
    ScrapeScheduler scheduler = new ScrapeScheduler(scraping, clock);
    try {
      scheduler.apply(List.of(target));
      assertThat(threeScrapes.await(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      assertTimeoutPreemptively(Duration.ofSeconds(10), scheduler::close);
    }
    long start = clock.now().toEpochMilli();
    StoredSeries up = counted.select(List.of(name("up")), Long.MIN_VALUE, Long.MAX_VALUE).get(0);
    assertThat(up.count()).isGreaterThanOrEqualTo(3);
    long first = up.timestamps()[0];
    assertThat(first).isEqualTo(target.nextScrapeAtOrAfter(first));
    for (int i = 1; i < up.count(); i++) {
      assertThat(up.timestamps()[i] - up.timestamps()[i - 1]).isEqualTo(15_000);
    }
    assertThat(start).isGreaterThanOrEqualTo(up.timestamps()[up.count() - 1]);
  }
}
