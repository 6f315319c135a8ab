package dev.firedrill.lab.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.firedrill.lab.metrics.MetricsEndpoint;
import dev.firedrill.net.HostPort;
import dev.firedrill.testing.LoadTarget;
import dev.firedrill.testing.Scrape;
import dev.firedrill.testing.StubHttpServer;
import dev.firedrill.testing.TraceHeaders;
import dev.firedrill.time.VirtualClock;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The open-loop generator against real servers on 127.0.0.1 (and once on a virtual clock). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoadGeneratorTest {

  private static String bucket(String outcome, String le) {
    return "firedrill_load_request_duration_seconds_bucket{outcome=\""
        + outcome
        + "\",le=\""
        + le
        + "\"}";
  }

  private static String requests(String outcome) {
    return "firedrill_load_requests_total{outcome=\"" + outcome + "\"}";
  }

  @Test
  void requestsLeaveAtTheirIntendedTimesOnTheInjectedClock() {
    VirtualClock clock = VirtualClock.at("2025-01-01T00:00:00Z");
    List<Long> sendTimes = new ArrayList<>();
    Transport transport =
        traceparent -> {
          sendTimes.add(clock.nanoTime());
          return CompletableFuture.completedFuture(Outcome.OK);
        };
    LoadPlan plan = LoadPlan.of(URI.create("http://127.0.0.1:1/"), 4, Duration.ofSeconds(2));

    LoadResult result = new LoadGenerator(plan, transport, new LoadMetrics(), clock).run();

    assertThat(sendTimes)
        .containsExactly(
            0L,
            250_000_000L,
            500_000_000L,
            750_000_000L,
            1_000_000_000L,
            1_250_000_000L,
            1_500_000_000L,
            1_750_000_000L);
    assertThat(result.sent()).isEqualTo(8);
    assertThat(result.count(Outcome.OK)).isEqualTo(8);
    assertThat(result.achievedRate()).isEqualTo(4.0);
    assertThat(result.sendLagMax()).isZero();
  }

  @Test
  void achievesTheTargetRateWithin2Percent() {
    try (LoadTarget target = LoadTarget.start()) {
      LoadPlan plan = LoadPlan.of(target.url("/"), 200, Duration.ofSeconds(5));

      LoadResult result = LoadGenerator.http(plan, new LoadMetrics()).run();

      assertThat(result.sent()).isEqualTo(1_000);
      assertThat(result.count(Outcome.OK)).isEqualTo(1_000);
      assertThat(result.unsent()).isZero();
      assertThat(result.achievedRate()).isCloseTo(200, within(4.0));
      assertThat(target.arrivals()).isEqualTo(1_000);
      assertThat(target.arrivalRate()).as("rate seen by the server").isCloseTo(200, within(4.0));
    }
  }

  /**
   * 100 requests/s for 5 s; from the 100th arrival (about 1 s in) the server holds every request
   * for what is left of a 2 s stall. Open loop, the requests due during the stall (about 200) still
   * leave on time (or, with a cap of 5 in flight, wait for a slot) and all end when the stall ends:
   * a request due {@code d} seconds into the stall waits {@code 2 - d} seconds, so latencies spread
   * evenly over (0, 2 s]: about rate × stall / 2 = 100 above 1 s, about 150 above 0.5 s. A closed
   * loop, or latency measured from the actual send, would show at most the few requests in flight
   * (5 with the cap) above 1 s.
   *
   * <p>The bounds are asymmetric: every request due in the first half of the stall is above 1 s (90
   * allows for jitter in when the stall starts); the client then needs a while to take in 200
   * answers released at once (0.2 to 0.7 s on a busy 2-core machine), which adds requests due just
   * after the first half, but never more than the 200 due during the stall.
   */
  @ParameterizedTest(name = "max in flight {0}")
  @ValueSource(ints = {1000, 5})
  void aStallShowsUpForEveryRequestDueDuringIt(int maxInFlight) {
    try (LoadTarget target = LoadTarget.start();
        LoadMetricsEndpoint metrics = LoadMetricsEndpoint.start()) {
      LoadGenerator.http(
              LoadPlan.of(target.url("/"), 200, Duration.ofSeconds(1)), new LoadMetrics())
          .run(); // warm-up
      target.stallAtArrival(100, Duration.ofSeconds(2));
      LoadPlan plan =
          LoadPlan.of(target.url("/"), 100, Duration.ofSeconds(5)).withMaxInFlight(maxInFlight);

      LoadResult result =
          new LoadGenerator(
                  plan,
                  new HttpTransport(plan),
                  metrics.metrics(),
                  dev.firedrill.time.Clock.system())
              .run();

      assertThat(result.count(Outcome.OK)).isEqualTo(500);
      Scrape scrape = Scrape.of(metrics.endpoint().url());
      double total = scrape.get(requests("ok"));
      double above1s = total - scrape.get(bucket("ok", "1.0"));
      double above500ms = total - scrape.get(bucket("ok", "0.5"));
      System.out.printf(
          "max in flight %d: above 1 s %.0f, above 0.5 s %.0f; %s%n",
          maxInFlight, above1s, above500ms, String.join("; ", result.summary()));
      assertThat(total).isEqualTo(500);
      assertThat(above1s).as("requests above 1 s: about rate × stall / 2").isBetween(90.0, 200.0);
      assertThat(above500ms).as("requests above 0.5 s: about rate × 1.5 s").isBetween(140.0, 300.0);
      assertThat(scrape.get(bucket("ok", "5.0"))).as("nothing near the 5 s timeout").isEqualTo(500);
      assertThat(result.max()).isBetween(Duration.ofMillis(1_800), Duration.ofMillis(4_000));
      assertThat(result.p99()).isGreaterThan(Duration.ofMillis(1_500));
    }
  }

  @Test
  void nothingListeningIsRefused() {
    try (LoadMetricsEndpoint metrics = LoadMetricsEndpoint.start()) {
      Scrape before = Scrape.of(metrics.endpoint().url());
      for (Outcome outcome : Outcome.values()) {
        assertThat(before.get(requests(outcome.label()))).isZero();
        assertThat(
                before.get(
                    "firedrill_load_request_duration_seconds_count{outcome=\""
                        + outcome.label()
                        + "\"}"))
            .isZero();
      }
      LoadPlan plan =
          LoadPlan.of(
              URI.create("http://127.0.0.1:" + StubHttpServer.closedPort() + "/"),
              20,
              Duration.ofSeconds(1));

      LoadResult result =
          new LoadGenerator(
                  plan,
                  new HttpTransport(plan),
                  metrics.metrics(),
                  dev.firedrill.time.Clock.system())
              .run();

      assertThat(result.count(Outcome.REFUSED)).isEqualTo(20);
      assertThat(result.count(Outcome.OK)).isZero();
      Scrape after = Scrape.of(metrics.endpoint().url());
      assertThat(after.get(requests("refused"))).isEqualTo(20);
      assertThat(after.get(requests("ok"))).isZero();
    }
  }

  @Test
  void noAnswerWithinTheTimeoutIsATimeoutAndErrorsAreErrors() {
    try (StubHttpServer hanging = StubHttpServer.start().hang();
        StubHttpServer failing = StubHttpServer.start()) {
      failing.respondJson(503, "{}");
      LoadPlan slow =
          LoadPlan.of(hanging.url("/"), 10, Duration.ofSeconds(1))
              .withTimeout(Duration.ofMillis(200));
      LoadResult timedOut = LoadGenerator.http(slow, new LoadMetrics()).run();
      assertThat(timedOut.count(Outcome.TIMEOUT)).isEqualTo(10);
      assertThat(timedOut.p50()).isBetween(Duration.ofMillis(190), Duration.ofMillis(600));

      LoadResult errors =
          LoadGenerator.http(
                  LoadPlan.of(failing.url("/"), 10, Duration.ofSeconds(1)), new LoadMetrics())
              .run();
      assertThat(errors.count(Outcome.ERROR)).isEqualTo(10);
    }
  }

  @Test
  void sendsBaggageWithTheExperimentIdAndATraceparentPerRequest() {
    try (LoadTarget target = LoadTarget.start()) {
      LoadPlan plan =
          LoadPlan.of(target.url("/checkout"), 20, Duration.ofSeconds(1))
              .withMethod("POST")
              .withExperimentId("drill-7");

      LoadGenerator.http(plan, new LoadMetrics()).run();

      assertThat(target.lastBaggage()).isEqualTo("chaos.experiment.id=drill-7");
      assertThat(TraceHeaders.parse(target.lastTraceparent())).isPresent();
      assertThat(target.distinctTraceIds()).isEqualTo(20);
    }
  }

  @Test
  void remoteTargetsAreRefusedUnlessAllowed() {
    Duration second = Duration.ofSeconds(1);
    assertThatThrownBy(
            () ->
                LoadPlan.of(URI.create("http://user:secret@example.com:8080/pay?q=1"), 10, second))
        .hasMessage(
            "url http://example.com:8080/pay is not on loopback (expected 127.0.0.0/8, ::1 or localhost; "
                + "pass --allow-remote to send load elsewhere)");
    assertThatThrownBy(() -> LoadPlan.of(URI.create("http://10.0.0.1/"), 10, second))
        .hasMessageContaining("not on loopback");
    assertThatThrownBy(() -> LoadPlan.of(URI.create("http://127.example.com/"), 10, second))
        .hasMessageContaining("not on loopback");
    assertThat(
            LoadPlan.of(URI.create("http://127.0.0.1/"), 10, second)
                .withAllowRemote(true)
                .allowRemote())
        .isTrue();
    assertThat(
            new LoadPlan(
                    URI.create("http://example.com/"),
                    "GET",
                    10,
                    second,
                    1,
                    second,
                    java.util.Optional.empty(),
                    true)
                .url()
                .getHost())
        .isEqualTo("example.com");
    for (String url :
        List.of(
            "http://127.0.0.1:9/",
            "http://127.3.2.1/",
            "http://localhost:80/",
            "http://[::1]:9/")) {
      assertThat(LoadPlan.of(URI.create(url), 10, second).url()).hasToString(url);
    }
  }

  @Test
  void plansAreBounded() {
    URI url = URI.create("http://127.0.0.1:9/");
    assertThatThrownBy(() -> LoadPlan.of(url, 10, Duration.ofHours(25)))
        .hasMessage("duration PT25H is not usable (expected more than 0, at most 24h)");
    assertThatThrownBy(() -> LoadPlan.of(url, 0, Duration.ofSeconds(1)))
        .hasMessage("rate 0.0 is not usable (expected more than 0, at most 100000 per second)");
    assertThatThrownBy(() -> LoadPlan.of(url, 0.5, Duration.ofSeconds(1)))
        .hasMessage("rate 0.5 for PT1S sends no request (expected rate × duration of at least 1)");
    assertThat(LoadPlan.of(url, 200, Duration.ofSeconds(5)).totalRequests()).isEqualTo(1_000);
    assertThat(LoadPlan.of(url, 3, Duration.ofMillis(1_500)).totalRequests()).isEqualTo(4);
  }

  /** A registry served on 127.0.0.1 for one test. */
  private record LoadMetricsEndpoint(LoadMetrics metrics, MetricsEndpoint endpoint)
      implements AutoCloseable {
    static LoadMetricsEndpoint start() {
      LoadMetrics metrics = new LoadMetrics();
      return new LoadMetricsEndpoint(
          metrics, MetricsEndpoint.start(metrics.registry(), HostPort.loopbackAnyPort()));
    }

    @Override
    public void close() {
      endpoint.close();
    }
  }
}
