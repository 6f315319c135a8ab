package dev.firedrill.marker.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.engine.Milestone;
import dev.firedrill.engine.Phase;
import dev.firedrill.experiment.MetricsExport;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * firedrill's own /metrics over real HTTP on loopback: what it serves and when closing may stop it.
 */
class ScrapeEndpointTest {

  private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
  private final HttpClient http = HttpClient.newHttpClient();
  private final List<String> notes = new CopyOnWriteArrayList<>();

  private MetricsSink open(Duration scrapeWait) {
    return MetricsSink.open(
        "scrape-test",
        new MetricsExport(Optional.of("127.0.0.1:0"), scrapeWait, Optional.empty()),
        Clock.system(),
        notes::add);
  }

  private HttpResponse<String> get(URI url) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static void faultOnThenOff(MetricsSink sink) {
    sink.on(new Milestone.PhaseStarted(Phase.INJECT, T0, Duration.ZERO));
    sink.on(ScriptedDrill.injected(0, ScriptedDrill.HTTP_LATENCY, T0));
    sink.on(ScriptedDrill.reverted(0, ScriptedDrill.HTTP_LATENCY, T0.plusSeconds(5)));
  }

  @Test
  void servesTheGaugeOnItsOwnEndpointAndAnnouncesIt() throws Exception {
    MetricsSink sink = open(Duration.ofSeconds(1));
    URI url = sink.endpoint().orElseThrow();
    try {
      sink.on(ScriptedDrill.injected(0, ScriptedDrill.HTTP_LATENCY, T0));

      HttpResponse<String> response = get(url);

      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.body())
          .contains(
              "chaos_experiment_active{experiment=\"scrape-test\",fault=\"http-latency\",target=\"payments\"} 1.0");
      assertThat(notes).containsExactly("metrics: chaos_experiment_active on " + url);
      assertThat(url.getHost()).isEqualTo("127.0.0.1");
    } finally {
      sink.close(Duration.ofSeconds(2));
    }
  }

  @Test
  void closeWaitsForAScrapeOfTheZeroAndNotForEarlierScrapesOrOtherRequests() throws Exception {
    MetricsSink sink = open(Duration.ofSeconds(20));
    URI url = sink.endpoint().orElseThrow();
    sink.on(ScriptedDrill.injected(0, ScriptedDrill.HTTP_LATENCY, T0));
    assertThat(get(url).body())
        .contains(
            "chaos_experiment_active{experiment=\"scrape-test\",fault=\"http-latency\",target=\"payments\"} 1.0");
    sink.on(ScriptedDrill.reverted(0, ScriptedDrill.HTTP_LATENCY, T0.plusSeconds(5)));

    CompletableFuture<Void> closing =
        CompletableFuture.runAsync(() -> sink.close(Duration.ofSeconds(25)));
    assertThat(get(url.resolve("/-/healthy")).statusCode()).isEqualTo(200);
    assertThat(closing).isNotDone();
    HttpResponse<String> scrape = get(url);

    assertThat(scrape.body())
        .contains(
            "chaos_experiment_active{experiment=\"scrape-test\",fault=\"http-latency\",target=\"payments\"} 0.0");
    closing.get(10, TimeUnit.SECONDS);
    assertThat(notes).hasSize(1);
    assertThatThrownBy(() -> get(url)).isInstanceOf(IOException.class);
  }

  @Test
  void withoutAScrapeCloseStopsAfterScrapeWaitAndSaysSo() throws Exception {
    MetricsSink sink = open(Duration.ofMillis(300));
    URI url = sink.endpoint().orElseThrow();
    faultOnThenOff(sink);

    sink.close(Duration.ofSeconds(10));

    assertThat(notes)
        .containsExactly(
            "metrics: chaos_experiment_active on " + url,
            "metrics: no scrape of "
                + url
                + " read chaos_experiment_active 0 within 0.3s; stopped serving"
                + " (Prometheus keeps 1 as the series' last value)");
    assertThatThrownBy(() -> get(url)).isInstanceOf(IOException.class);
  }

  @Test
  void aDrillThatNeverTurnedAFaultOnDoesNotWait() {
    MetricsSink sink = open(Duration.ofSeconds(60));
    sink.on(new Milestone.PhaseStarted(Phase.PREFLIGHT, T0, Duration.ZERO));

    CompletableFuture<Void> closing =
        CompletableFuture.runAsync(() -> sink.close(Duration.ofSeconds(65)));

    assertThat(closing).succeedsWithin(Duration.ofSeconds(10));
    assertThat(notes).hasSize(1);
  }

  @Test
  void aBusyPortIsRefusedWithTheAddressAndTheReason() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String address = "127.0.0.1:" + taken.getLocalPort();
      MetricsExport export =
          new MetricsExport(Optional.of(address), Duration.ofSeconds(1), Optional.empty());

      assertThatThrownBy(() -> MetricsSink.open("scrape-test", export, Clock.system(), notes::add))
          .isInstanceOf(MetricsEndpointException.class)
          .hasMessage("cannot listen on " + address + " (Address already in use)")
          .extracting(e -> ((MetricsEndpointException) e).reason())
          .isEqualTo("Address already in use");
      assertThat(notes).isEmpty();
    }
  }
}
