package dev.firedrill.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.proxy.FaultProxy;
import dev.firedrill.proxy.ProxyConfig;
import dev.firedrill.testing.StubHttpServer;
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

/** The http-* faults against a real in-process fault proxy on 127.0.0.1. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HttpToxicFaultTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  private HttpServer upstream;
  private FaultProxy proxy;

  @BeforeEach
  void start() throws IOException {
    upstream = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    upstream.createContext(
        "/",
        exchange -> {
          byte[] ok = "ok".getBytes();
          exchange.sendResponseHeaders(200, ok.length);
          exchange.getResponseBody().write(ok);
          exchange.close();
        });
    upstream.start();
    proxy = startProxy(Optional.empty());
  }

  private FaultProxy startProxy(Optional<String> token) throws IOException {
    InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    return FaultProxy.start(
        new ProxyConfig(
            "payments",
            ProxyConfig.Mode.HTTP,
            any,
            URI.create("http://127.0.0.1:" + upstream.getAddress().getPort()),
            any,
            Optional.empty(),
            token));
  }

  @AfterEach
  void stop() {
    proxy.close();
    upstream.stop(0);
  }

  private static FaultContext context(String id, double trafficShare) {
    BlastRadius radius = new BlastRadius(trafficShare, Duration.ofHours(1), 0.05, 1, 1);
    return new FaultContext(
        id,
        radius,
        Duration.ofSeconds(1),
        ProcessTable.system(),
        WorkerLauncher.current(),
        Clock.system(),
        Map.of(),
        Optional.empty());
  }

  private FaultSpec.HttpToxic spec(FaultSpec.HttpToxic.Effect effect, double share, Duration ttl) {
    return new FaultSpec.HttpToxic(
        proxy.adminUrl(), "payments", share, effect, Optional.ofNullable(ttl), Optional.empty());
  }

  private int status() throws Exception {
    return CLIENT
        .send(
            HttpRequest.newBuilder(proxy.url().resolve("/pay"))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .statusCode();
  }

  @Test
  void plansTheExactRequest() throws Exception {
    Fault fault =
        Faults.create(
            spec(
                new FaultSpec.HttpToxic.Latency(Duration.ofMillis(200), Duration.ofMillis(20)),
                0.05,
                Duration.ofMinutes(5)),
            context("checkout-latency", 0.05),
            0);

    assertThat(fault.plan())
        .containsExactly(
            "POST "
                + proxy.adminUrl()
                + "/proxies/payments/toxics {\"name\":\"firedrill-checkout-latency-0\","
                + "\"type\":\"latency\",\"stream\":\"downstream\",\"toxicity\":0.05,"
                + "\"attributes\":{\"latency\":200,\"jitter\":20},\"ttl\":\"5m\"}",
            "the proxy removes toxic firedrill-checkout-latency-0 by itself after 5m");
    assertThat(proxy.toxics().active()).as("plan has no side effects").isEmpty();
  }

  @Test
  void eachKindBecomesItsToxic() throws Exception {
    FaultContext context = context("kinds", 1);
    Map<FaultSpec.HttpToxic.Effect, String> expected =
        Map.of(
            new FaultSpec.HttpToxic.Error(502),
                "\"type\":\"error\",\"stream\":\"downstream\",\"toxicity\":1.0,\"attributes\":{\"status\":502}",
            new FaultSpec.HttpToxic.Reset(),
                "\"type\":\"reset\",\"stream\":\"upstream\",\"toxicity\":1.0,\"attributes\":{}",
            new FaultSpec.HttpToxic.Timeout(Duration.ZERO),
                "\"type\":\"timeout\",\"stream\":\"upstream\",\"toxicity\":1.0,\"attributes\":{\"timeout\":0}");
    for (var entry : expected.entrySet()) {
      Fault fault = Faults.create(spec(entry.getKey(), 1, Duration.ofMinutes(1)), context, 3);
      assertThat(fault.plan().get(0))
          .contains("{\"name\":\"firedrill-kinds-3\"," + entry.getValue() + ",\"ttl\":\"1m\"}");
    }
  }

  /**
   * Two drills of one experiment against one proxy: the second's injection fails on the toxic's
   * name (409), and its rollback leaves the first drill's toxic alone (it deleted it, so the first
   * drill went on measuring with no fault).
   */
  @Test
  void aFailedInjectionsRollbackLeavesAnotherDrillsToxicAlone() throws Exception {
    FaultSpec.HttpToxic spec = spec(new FaultSpec.HttpToxic.Error(503), 1, Duration.ofMinutes(2));
    Fault first = Faults.create(spec, context("pay-errors", 1), 0);
    Fault second = Faults.create(spec, context("pay-errors", 1), 0);
    first.inject();

    assertThatThrownBy(second::inject)
        .isInstanceOf(FaultException.class)
        .hasMessageContaining("already exists");
    second.revert();

    assertThat(second.verify())
        .isEqualTo(
            Verification.reverted(
                "toxic firedrill-pay-errors-0 on proxy payments was not created by this drill"
                    + " (the proxy had it already, 409); left in place for the drill that owns it;"
                    + " verified: this drill sent no DELETE"));
    assertThat(status()).isEqualTo(503);
    assertThat(first.verify().reverted()).isFalse();
    first.revert();
    assertThat(first.verify().reverted()).isTrue();
    assertThat(status()).isEqualTo(200);
  }

  /**
   * With run ids (every drill draws one) two runs of one experiment name their toxics apart: the
   * second is refused at its plan, and should it inject anyway (two plans racing), its rollback
   * deletes its own toxic only, while the first run's stays on.
   */
  @Test
  void eachRunNamesItsToxicAndItsRollbackRemovesOnlyItsOwn() throws Exception {
    FaultSpec.HttpToxic spec = spec(new FaultSpec.HttpToxic.Error(503), 1, Duration.ofMinutes(2));
    Fault first = Faults.create(spec, context("pay-errors", 1).withRunId("0000000a"), 0);
    assertThat(((HttpToxicFault) first).toxicName()).isEqualTo("firedrill-pay-errors-0000000a-0");
    assertThat(first.stateBeforeInjection().orElseThrow())
        .containsEntry("toxic", "firedrill-pay-errors-0000000a-0");
    first.plan();
    first.inject();

    Fault second = Faults.create(spec, context("pay-errors", 1).withRunId("0000000b"), 0);
    assertThatThrownBy(second::plan)
        .isInstanceOf(FaultException.class)
        .hasMessageStartingWith(
            "http-error: toxic firedrill-pay-errors-0000000a-0 of experiment pay-errors is already"
                + " on proxy payments");
    second.inject();
    second.revert();
    assertThat(second.verify().detail())
        .isEqualTo(
            "removed toxic firedrill-pay-errors-0000000b-0 from proxy payments; verified: the proxy"
                + " no longer lists it");
    assertThat(status()).as("the first run's toxic still answers").isEqualTo(503);
    assertThat(first.verify().reverted()).isFalse();
    first.revert();
    assertThat(first.verify().reverted()).isTrue();
    assertThat(status()).isEqualTo(200);
  }

  /** A second drill of one experiment against one proxy is refused before it injects anything. */
  @Test
  void aSecondDrillOfTheExperimentIsRefusedWhenItsToxicIsOnTheProxy() throws Exception {
    FaultSpec.HttpToxic spec = spec(new FaultSpec.HttpToxic.Error(503), 1, Duration.ofMinutes(2));
    Fault first = Faults.create(spec, context("pay-errors", 1), 0);
    first.plan();
    first.inject();

    Fault second = Faults.create(spec, context("pay-errors", 1), 0);
    assertThatThrownBy(second::plan)
        .isInstanceOf(FaultException.class)
        .hasMessage(
            "http-error: toxic firedrill-pay-errors-0 of experiment pay-errors is already on proxy"
                + " payments at "
                + proxy.adminUrl()
                + ": another drill of this experiment is running against it, or one left it"
                + " behind; wait for its ttl or remove it with: curl -X DELETE "
                + proxy.adminUrl()
                + "/proxies/payments/toxics/firedrill-pay-errors-0");
    // Another experiment whose id starts the same is not this one.
    Faults.create(spec, context("pay", 1), 0).plan();
    first.revert();
  }

  /**
   * An admin API that accepts and never answers (a slow-loris before injection): the drill is
   * refused at its plan, where it ended failed with a rollback it could not verify, exit 7.
   */
  @Test
  void aStalledAdminApiRefusesTheDrillBeforeAnythingIsInjected() {
    try (StubHttpServer admin = StubHttpServer.start().hang()) {
      Fault fault =
          Faults.create(
              new FaultSpec.HttpToxic(
                  admin.url(""),
                  "payments",
                  1,
                  new FaultSpec.HttpToxic.Error(503),
                  Optional.of(Duration.ofMinutes(2)),
                  Optional.empty()),
              context("pay-errors", 1),
              0);
      assertThatThrownBy(fault::plan)
          .isInstanceOf(FaultException.class)
          .hasMessageEndingWith("; checked before injection, nothing was injected");
      assertThat(admin.requests()).extracting(StubHttpServer.Request::method).containsOnly("GET");
    }
  }

  @Test
  void injectsVerifiesAndReverts() throws Exception {
    Fault fault =
        Faults.create(
            spec(new FaultSpec.HttpToxic.Error(503), 1, Duration.ofMinutes(2)),
            context("pay-errors", 1),
            0);
    assertThat(fault.verify().reverted()).isTrue();
    assertThat(status()).isEqualTo(200);

    fault.inject();

    JsonNode toxic =
        JSON.readTree(
            CLIENT
                .send(
                    HttpRequest.newBuilder(
                            proxy
                                .adminUrl()
                                .resolve("/proxies/payments/toxics/firedrill-pay-errors-0"))
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .body());
    assertThat(toxic.path("type").asText()).isEqualTo("error");
    assertThat(toxic.path("ttl").asText()).isEqualTo("2m");
    assertThat(status()).isEqualTo(503);
    Verification on = fault.verify();
    assertThat(on.reverted()).isFalse();
    // The proxy counts the ttl down in real time: on a loaded machine a second or more has passed.
    assertThat(on.detail())
        .matches(
            "toxic firedrill-pay-errors-0 still on proxy payments, ttl_remaining (2m|1m[0-5]?\\ds)");
    assertThat(fault.state())
        .containsExactly(
            Map.entry("proxy", proxy.adminUrl().toString()),
            Map.entry("proxy_name", "payments"),
            Map.entry("toxic", "firedrill-pay-errors-0"));
    assertThat(fault.manualRevertCommand())
        .isEqualTo(
            "curl -X DELETE "
                + proxy.adminUrl()
                + "/proxies/payments/toxics/firedrill-pay-errors-0");

    assertThatThrownBy(fault::inject)
        .isInstanceOf(FaultException.class)
        .hasMessage(
            "http-error: toxic firedrill-pay-errors-0 already exists on proxy payments at "
                + proxy.adminUrl()
                + " (left by an earlier drill of this experiment?); remove it with: "
                + fault.manualRevertCommand());

    Fault restored =
        Faults.restore(fault.spec(), context("pay-errors", 1), Contexts.throughJson(fault.state()));
    restored.revert();
    assertThat(restored.verify())
        .isEqualTo(
            Verification.reverted(
                "removed toxic firedrill-pay-errors-0 from proxy payments; verified: the proxy no longer lists it"));
    assertThat(status()).isEqualTo(200);
    fault.revert(); // 404: idempotent
    assertThat(fault.verify().reverted()).isTrue();
  }

  @Test
  void theProxyRemovesTheToxicAtItsTtlWithNoCall() throws Exception {
    Fault fault =
        Faults.create(
            spec(new FaultSpec.HttpToxic.Reset(), 1, Duration.ofSeconds(1)),
            context("short", 1),
            0);
    fault.inject();
    assertThat(fault.verify().reverted()).isFalse();
    long start = System.nanoTime();
    while (!fault.verify().reverted() && System.nanoTime() - start < 3_000_000_000L) {
      Thread.sleep(20);
    }
    assertThat((System.nanoTime() - start) / 1e9).isLessThan(1.5);
    assertThat(fault.verify().reverted()).isTrue();
  }

  @Test
  void refusesAShareAboveTheBlastRadiusAndAMissingTtl() {
    Fault tooMuch =
        Faults.create(
            spec(new FaultSpec.HttpToxic.Error(503), 0.5, Duration.ofMinutes(1)),
            context("wide", 0.05),
            0);
    assertThatThrownBy(tooMuch::plan)
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "http-error: share 50% of requests exceeds blast_radius traffic_share 5%; expected a share of at most"
                + " 0.05 (\"5%\")");
    assertThatThrownBy(tooMuch::inject).isInstanceOf(FaultRefusedException.class);
    assertThat(proxy.toxics().active()).isEmpty();

    Fault noTtl =
        Faults.create(
            spec(new FaultSpec.HttpToxic.Reset(), 0.05, null), context("no-ttl", 0.05), 0);
    assertThatThrownBy(noTtl::plan)
        .isInstanceOf(FaultRefusedException.class)
        .hasMessageStartingWith(
            "http-reset: no ttl; every fault needs a ttl that the injector enforces on its own: add ttl: ");
  }

  @Test
  void anUnreachableAdminIsOneLineNamingTheUrl() {
    URI closed = URI.create("http://127.0.0.1:" + StubHttpServer.closedPort());
    Fault fault =
        Faults.create(
            new FaultSpec.HttpToxic(
                closed,
                "payments",
                1,
                new FaultSpec.HttpToxic.Reset(),
                Optional.of(Duration.ofMinutes(1)),
                Optional.empty()),
            context("down", 1),
            0);
    assertThatThrownBy(fault::inject)
        .isInstanceOf(FaultException.class)
        .hasMessage(
            "http-reset: cannot reach the proxy admin API at "
                + closed
                + "/proxies/payments/toxics (connection refused)");
    assertThat(fault.verify())
        .isEqualTo(
            Verification.remaining(
                "http-reset: cannot reach the proxy admin API at "
                    + closed
                    + "/proxies/payments/toxics"
                    + " (connection refused)"));
  }

  @Test
  void usesTheAdminTokenFromTheEnvironmentAndNeverShowsIt() throws Exception {
    try (FaultProxy guarded = startProxy(Optional.of("tok-secret-42"))) {
      FaultSpec.HttpToxic spec =
          new FaultSpec.HttpToxic(
              guarded.adminUrl(),
              "payments",
              1,
              new FaultSpec.HttpToxic.Latency(Duration.ofMillis(50), Duration.ZERO),
              Optional.of(Duration.ofMinutes(1)),
              Optional.of("PROXY_TOKEN"));

      Fault unset = Faults.create(spec, context("token", 1), 0);
      assertThatThrownBy(unset::inject)
          .isInstanceOf(FaultException.class)
          .hasMessage(
              "http-latency: proxy admin token: environment variable PROXY_TOKEN is not set (expected a bearer token)");

      Fault wrong =
          Faults.create(
              spec, context("token", 1).withEnvironment(Map.of("PROXY_TOKEN", "nope")), 0);
      assertThatThrownBy(wrong::inject)
          .isInstanceOf(FaultException.class)
          .hasMessage(
              "http-latency: POST "
                  + guarded.adminUrl()
                  + "/proxies/payments/toxics answered 401 missing or wrong bearer token"
                  + " (expected Authorization: Bearer TOKEN); expected 200 with the toxic");

      Fault fault =
          Faults.create(
              spec, context("token", 1).withEnvironment(Map.of("PROXY_TOKEN", "tok-secret-42")), 0);
      fault.inject();
      assertThat(guarded.toxics().active()).hasSize(1);
      assertThat(fault.verify().reverted()).isFalse();
      assertThat(fault.manualRevertCommand())
          .isEqualTo(
              "curl -X DELETE -H \"Authorization: Bearer $PROXY_TOKEN\" "
                  + guarded.adminUrl()
                  + "/proxies/payments/toxics/firedrill-token-0");
      assertThat(
              String.join(" ", fault.plan())
                  + fault.state()
                  + fault.manualRevertCommand()
                  + fault.verify())
          .doesNotContain("tok-secret-42");
      fault.revert();
      assertThat(fault.verify().reverted()).isTrue();
    }
  }
}
