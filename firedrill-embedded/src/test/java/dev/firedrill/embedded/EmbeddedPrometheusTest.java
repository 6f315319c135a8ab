package dev.firedrill.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.embedded.config.ConfigLoader;
import dev.firedrill.embedded.drive.Scheduled;
import dev.firedrill.embedded.drive.VirtualDriver;
import dev.firedrill.embedded.rules.snapshot.GroupSnapshot;
import dev.firedrill.embedded.storage.Storage;
import dev.firedrill.promconfig.Config;
import dev.firedrill.promconfig.ScrapeConfig;
import dev.firedrill.promconfig.StaticConfig;
import dev.firedrill.promql.eval.Engine;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.StoredSeries;
import dev.firedrill.time.Clock;
import dev.firedrill.time.VirtualClock;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The assembly with stand-in scrapes and rule groups that write what they are asked for at the
 * instant they are given: the real storage, API, drivers and config.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EmbeddedPrometheusTest {

  private static final String YAML =
      """
      global:
        scrape_interval: 5s
        evaluation_interval: 10s
      scrape_configs:
        - job_name: demo
          static_configs:
            - targets: ['127.0.0.1:9100', '127.0.0.1:9101']
      """;
  private static final Instant START = Instant.parse("2026-11-29T00:00:00Z");

  /** Each target appends up=1 at its slot; one group records how often it ran. */
  private static final class StandIns implements EmbeddedPrometheus.Components {
    final List<String> ran = new ArrayList<>();
    final CountDownLatch scraped = new CountDownLatch(2);

    @Override
    public List<Scheduled> scrapes(Config config, Storage storage, Clock clock) {
      List<Scheduled> work = new ArrayList<>();
      for (ScrapeConfig job : config.scrapeConfigs()) {
        for (StaticConfig group : job.staticConfigs()) {
          for (String target : group.targets()) {
            work.add(
                new Scheduled(
                    job.jobName() + "/" + target,
                    job.scrapeInterval(),
                    Duration.ZERO,
                    at -> {
                      synchronized (ran) {
                        ran.add(target + "@" + at.getEpochSecond() % 100);
                      }
                      storage.append(
                          LabelSet.of("__name__", "up", "job", job.jobName(), "instance", target),
                          at.toEpochMilli(),
                          1);
                      scraped.countDown();
                    }));
          }
        }
      }
      return work;
    }

    @Override
    public EmbeddedPrometheus.Rules rules(
        Config config, Storage storage, Engine engine, Clock clock, URI externalUrl) {
      Scheduled group =
          new Scheduled(
              "group",
              config.global().evaluationInterval(),
              Duration.ZERO,
              at -> {
                synchronized (ran) {
                  ran.add("rules@" + at.getEpochSecond() % 100);
                }
                storage.append(LabelSet.of("__name__", "evaluated"), at.toEpochMilli(), 1);
              });
      GroupSnapshot status =
          new GroupSnapshot("group", "rules.yml", List.of(), 10, 0, 0, Optional.empty());
      return new EmbeddedPrometheus.Rules(List.of(group), () -> List.of(status), () -> {});
    }
  }

  private static EmbeddedPrometheus.Settings settings(Duration retention) {
    Config config = ConfigLoader.parse(Path.of("prometheus.yml"), YAML);
    return new EmbeddedPrometheus.Settings(
        config, YAML, retention, new InetSocketAddress("127.0.0.1", 0), Engine.Options.defaults());
  }

  private static String get(URI url) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Test
  void aSimulationScrapesThenEvaluatesAtEachSlotAsTheClockIsAdvanced() throws Exception {
    StandIns parts = new StandIns();
    VirtualClock clock = new VirtualClock(START);
    try (EmbeddedPrometheus prometheus =
        EmbeddedPrometheus.simulate(
            settings(Duration.ofHours(2)), parts, VirtualDriver.on(clock))) {
      clock.advance(Duration.ofSeconds(10));

      assertThat(parts.ran)
          .containsExactly(
              "127.0.0.1:9100@0",
              "127.0.0.1:9101@0",
              "rules@0",
              "127.0.0.1:9100@5",
              "127.0.0.1:9101@5",
              "127.0.0.1:9100@10",
              "127.0.0.1:9101@10",
              "rules@10");
      List<StoredSeries> up =
          prometheus
              .storage()
              .select(
                  List.of(LabelMatcher.of(LabelMatcher.Type.EQUAL, "instance", "127.0.0.1:9100")),
                  0,
                  Long.MAX_VALUE);
      assertThat(Arrays.copyOf(up.get(0).timestamps(), up.get(0).count()))
          .containsExactly(
              START.toEpochMilli(), START.toEpochMilli() + 5_000, START.toEpochMilli() + 10_000);
      URI url = prometheus.url();
      assertThat(get(url.resolve("/api/v1/series?match[]=up")))
          .isEqualTo(
              "{\"status\":\"success\",\"data\":["
                  + "{\"__name__\":\"up\",\"instance\":\"127.0.0.1:9100\",\"job\":\"demo\"},"
                  + "{\"__name__\":\"up\",\"instance\":\"127.0.0.1:9101\",\"job\":\"demo\"}]}");
      assertThat(get(url.resolve("/api/v1/status/config")))
          .isEqualTo(
              "{\"status\":\"success\",\"data\":{\"yaml\":"
                  + "\"global:\\n  scrape_interval: 5s\\n  evaluation_interval: 10s\\nscrape_configs:\\n  - job_name: demo\\n"
                  + "    static_configs:\\n      - targets: ['127.0.0.1:9100', '127.0.0.1:9101']\\n\"}}");
      // The stand-in group has no rules, and Prometheus 3 (the default mode) leaves such a group
      // out of /api/v1/rules, as the real 3.5.3 does (2.42, mode 2, lists it).
      assertThat(get(url.resolve("/api/v1/rules")))
          .isEqualTo("{\"status\":\"success\",\"data\":{\"groups\":[]}}");
    }
  }

  @Test
  void samplesOlderThanTheRetentionAreDropped() throws Exception {
    VirtualClock clock = new VirtualClock(START);
    try (EmbeddedPrometheus prometheus =
        EmbeddedPrometheus.simulate(
            settings(Duration.ofMinutes(2)), new StandIns(), VirtualDriver.on(clock))) {
      clock.advance(Duration.ofMinutes(5));

      List<StoredSeries> evaluated =
          prometheus
              .storage()
              .select(
                  List.of(LabelMatcher.of(LabelMatcher.Type.EQUAL, "__name__", "evaluated")),
                  0,
                  Long.MAX_VALUE);
      // the last truncation ran at 5m and kept everything from 3m on
      assertThat(evaluated.get(0).timestamps()[0])
          .isEqualTo(START.plus(Duration.ofMinutes(3)).toEpochMilli());
      assertThat(evaluated.get(0).count()).isEqualTo(13);
    }
  }

  @Test
  void inRealTimeItScrapesAsTimePassesAndClosesPromptly() throws Exception {
    StandIns parts = new StandIns();
    EmbeddedPrometheus prometheus =
        EmbeddedPrometheus.start(settings(Duration.ofHours(2)), parts, Clock.system());
    try {
      assertThat(parts.scraped.await(15, TimeUnit.SECONDS)).as("both targets scraped").isTrue();
      assertThat(get(prometheus.url().resolve("/-/ready")))
          .isEqualTo("Prometheus Server is Ready.\n");
    } finally {
      long before = System.nanoTime();
      prometheus.close();
      assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(8));
    }
  }
}
