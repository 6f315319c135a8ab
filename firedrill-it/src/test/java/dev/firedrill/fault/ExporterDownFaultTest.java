package dev.firedrill.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.proxy.FaultProxy;
import dev.firedrill.proxy.ProxyConfig;
import dev.firedrill.testing.SyntheticService;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * exporter-down against a real in-process fault proxy in front of a small metrics server, as the
 * lab's payments-metrics proxy sits in front of payments' /metrics: scrapes through it fail while
 * the toxic is on, and answer again after revert.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExporterDownFaultTest {

  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  private SyntheticService exporter;
  private FaultProxy proxy;

  @BeforeEach
  void start() throws IOException {
    exporter = SyntheticService.start();
    InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    proxy =
        FaultProxy.start(
            new ProxyConfig(
                "payments-metrics",
                ProxyConfig.Mode.HTTP,
                any,
                URI.create("http://" + exporter.address()),
                any,
                Optional.empty(),
                Optional.empty()));
  }

  @AfterEach
  void stop() {
    proxy.close();
    exporter.close();
  }

  /** A blast radius that lets 1% of user traffic be touched: exporter-down touches none. */
  private static FaultContext context(String id) {
    BlastRadius radius = new BlastRadius(0.01, Duration.ofMinutes(5), 0.05, 1, 1);
    return new FaultContext(
        id,
        radius,
        Duration.ofSeconds(20),
        ProcessTable.system(),
        WorkerLauncher.current(),
        Clock.system(),
        Map.of(),
        Optional.empty());
  }

  private FaultSpec.ExporterDown spec(FaultSpec.ExporterDown.Mode mode, Duration ttl) {
    return new FaultSpec.ExporterDown(
        proxy.adminUrl(), "payments-metrics", mode, Optional.ofNullable(ttl), Optional.empty());
  }

  private HttpResponse<String> scrape() throws IOException, InterruptedException {
    return CLIENT.send(
        HttpRequest.newBuilder(proxy.url().resolve("/metrics"))
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void plansTheToxicAndSaysTrafficShareDoesNotLimitIt() throws Exception {
    Fault fault =
        Faults.create(spec(null, Duration.ofMinutes(2)), context("payments-exporter-down"), 0);

    assertThat(fault.spec().kind()).isEqualTo("exporter-down");
    assertThat(fault.plan())
        .containsExactly(
            "POST "
                + proxy.adminUrl()
                + "/proxies/payments-metrics/toxics {\"name\":\"firedrill-payments-exporter-down-0\","
                + "\"type\":\"error\",\"stream\":\"downstream\",\"toxicity\":1.0,\"attributes\":{\"status\":503},"
                + "\"ttl\":\"2m\"}",
            "every scrape through proxy payments-metrics fails (answered 503) until the toxic goes; no user traffic goes"
                + " through it, so blast_radius traffic_share does not limit it",
            "the proxy removes toxic firedrill-payments-exporter-down-0 by itself after 2m");
    assertThat(
            Faults.create(
                    spec(FaultSpec.ExporterDown.Mode.RESET, Duration.ofMinutes(2)), context("x"), 1)
                .plan())
        .containsExactly(
            "POST "
                + proxy.adminUrl()
                + "/proxies/payments-metrics/toxics {\"name\":\"firedrill-x-1\",\"type\":\"reset\","
                + "\"stream\":\"upstream\",\"toxicity\":1.0,\"attributes\":{},\"ttl\":\"2m\"}",
            "every scrape through proxy payments-metrics fails (connection reset) until the toxic goes; no user traffic"
                + " goes through it, so blast_radius traffic_share does not limit it",
            "the proxy removes toxic firedrill-x-1 by itself after 2m");
    assertThat(proxy.toxics().active()).as("plan has no side effects").isEmpty();
  }

  @Test
  void theTtlRulesStillHoldAndNameTheKind() {
    Fault noTtl = Faults.create(spec(null, null), context("no-ttl"), 0);
    assertThatThrownBy(noTtl::plan)
        .isInstanceOf(FaultRefusedException.class)
        .hasMessageStartingWith(
            "exporter-down: no ttl; every fault needs a ttl that the injector enforces on its own: add ttl: ");
    Fault tooLong = Faults.create(spec(null, Duration.ofMinutes(10)), context("long"), 0);
    assertThatThrownBy(tooLong::inject)
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "exporter-down: ttl 10m is longer than blast_radius max_duration 5m; expected a ttl of at most 5m");
    assertThat(proxy.toxics().active()).isEmpty();
  }

  @Test
  void errorModeFailsEveryScrapeUntilRevert() throws Exception {
    assertThat(scrape().statusCode()).isEqualTo(200);
    assertThat(scrape().body()).contains("demo_requests_total{code=\"200\"}");
    Fault fault =
        Faults.create(
            spec(FaultSpec.ExporterDown.Mode.ERROR, Duration.ofMinutes(2)), context("scrapes"), 0);
    assertThat(fault.verify().reverted()).isTrue();
    long before = exporter.scrapes();

    fault.inject();

    for (int i = 0; i < 5; i++) {
      HttpResponse<String> failed = scrape();
      assertThat(failed.statusCode()).isEqualTo(503);
      assertThat(failed.body()).doesNotContain("demo_requests_total");
    }
    assertThat(exporter.scrapes())
        .as("the exporter is not called while the toxic is on")
        .isEqualTo(before);
    assertThat(fault.verify())
        .isEqualTo(
            Verification.remaining(
                "toxic firedrill-scrapes-0 still on proxy payments-metrics, ttl_remaining 2m"));
    assertThat(fault.state())
        .containsExactly(
            Map.entry("proxy", proxy.adminUrl().toString()),
            Map.entry("proxy_name", "payments-metrics"),
            Map.entry("toxic", "firedrill-scrapes-0"));
    assertThat(fault.manualRevertCommand())
        .isEqualTo(
            "curl -X DELETE "
                + proxy.adminUrl()
                + "/proxies/payments-metrics/toxics/firedrill-scrapes-0");
    assertThatThrownBy(fault::inject)
        .isInstanceOf(FaultException.class)
        .hasMessage(
            "exporter-down: toxic firedrill-scrapes-0 already exists on proxy payments-metrics at "
                + proxy.adminUrl()
                + " (left by an earlier drill of this experiment?); remove it with: "
                + fault.manualRevertCommand());

    fault.revert();

    assertThat(fault.verify())
        .isEqualTo(
            Verification.reverted(
                "removed toxic firedrill-scrapes-0 from proxy payments-metrics; verified: the proxy"
                    + " no longer lists it"));
    HttpResponse<String> restored = scrape();
    assertThat(restored.statusCode()).isEqualTo(200);
    assertThat(restored.body()).contains("demo_requests_total{code=\"200\"}");
    assertThat(exporter.scrapes()).isGreaterThan(before);
  }

  @Test
  void resetModeResetsTheScrapeAndARestoredFaultRevertsIt() throws Exception {
    Fault fault =
        Faults.create(
            spec(FaultSpec.ExporterDown.Mode.RESET, Duration.ofMinutes(1)), context("resets"), 0);
    fault.inject();

    assertThatThrownBy(this::scrape).isInstanceOf(IOException.class);

    // What cleanup does: the fault rebuilt from the journal's state, through JSON.
    Fault restored =
        Faults.restore(fault.spec(), context("resets"), Contexts.throughJson(fault.state()));
    restored.revert();
    assertThat(restored.verify().reverted()).isTrue();
    assertThat(scrape().statusCode()).isEqualTo(200);
    fault.revert(); // 404: idempotent
    assertThat(fault.verify().reverted()).isTrue();
  }
}
