package dev.firedrill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.embedded.scrape.ExpositionFormat;
import dev.firedrill.embedded.scrape.ExpositionParser;
import dev.firedrill.embedded.scrape.ScrapeReport;
import dev.firedrill.embedded.scrape.ScrapeTarget;
import dev.firedrill.embedded.scrape.Scraper;
import dev.firedrill.embedded.storage.MemoryStorage;
import dev.firedrill.promconfig.ScrapeConfig;
import dev.firedrill.promconfig.StaticConfig;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.testing.StubHttpServer;
import dev.firedrill.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One target exposing {@value #SERIES} series in the text format (about 1 MB), scraped {@value
 * #SCRAPES} times into the memory storage over loopback: the scrape's duration (HTTP, parse,
 * append) and the parse alone, p50 and max. Asserts only that every scrape stored every series.
 *
 * <p>Not run by default: {@code mvn -B -q -o test -Dtest=ScrapeBenchmark}.
 */
class ScrapeBenchmark {

  static final int SERIES = 10_000;
  static final int SCRAPES = 40;

  @Test
  void scrapeOfTenThousandSeries() throws Exception {
    StringBuilder body = new StringBuilder("# TYPE http_requests_total counter\n");
    for (int i = 0; i < SERIES; i++) {
      body.append("http_requests_total{handler=\"/api/v1/h")
          .append(i / 100)
          .append("\",code=\"")
          .append(200 + i % 4 * 100)
          .append("\",pod=\"pod-")
          .append(i)
          .append("\"} ")
          .append(i * 3)
          .append('\n');
    }
    BenchReport report = new BenchReport("scrape");
    try (StubHttpServer exporter = StubHttpServer.start()) {
      exporter.respond(200, "text/plain; version=0.0.4", body.toString());
      MemoryStorage storage = new MemoryStorage();
      Scraper scraper = new Scraper(storage, Clock.system());
      ScrapeTarget target =
          ScrapeTarget.of(
                  new ScrapeConfig(
                      "bench",
                      Duration.ofSeconds(15),
                      Duration.ofSeconds(10),
                      "/metrics",
                      "http",
                      false,
                      List.of(
                          new StaticConfig(
                              List.of("127.0.0.1:" + exporter.port()), LabelSet.EMPTY))))
              .get(0);
      scraper.sync(List.of(target), 0);
      double[] scrapes = new double[SCRAPES];
      for (int i = 0; i < SCRAPES; i++) {
        ScrapeReport r = scraper.scrapeOnce(target, (i + 1) * 15_000L);
        assertThat(r.error()).isNull();
        assertThat(r.samplesScraped()).isEqualTo(SERIES);
        scrapes[i] = r.durationSeconds() * 1000;
      }
      double[] parses = new double[SCRAPES];
      for (int i = 0; i < SCRAPES; i++) {
        long start = System.nanoTime();
        ExpositionParser.parse("bench", body.toString(), ExpositionFormat.PROMETHEUS_TEXT);
        parses[i] = (System.nanoTime() - start) / 1e6;
      }
      Arrays.sort(scrapes);
      Arrays.sort(parses);
      report.line("exposition: %d series, %d KB", SERIES, body.length() / 1024);
      report.line(
          "scrape (HTTP, parse, append): p50 %.1f ms, max %.1f ms",
          scrapes[SCRAPES / 2], scrapes[SCRAPES - 1]);
      report.line(
          "parse alone: p50 %.1f ms, max %.1f ms", parses[SCRAPES / 2], parses[SCRAPES - 1]);
      report.finish();
      assertThat(storage.seriesCount()).isEqualTo(SERIES + 5);
    }
  }
}
