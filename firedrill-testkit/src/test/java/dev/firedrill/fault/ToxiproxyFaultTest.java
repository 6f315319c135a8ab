package dev.firedrill.fault;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.deleteRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.FaultSpec.HttpToxic;
import dev.firedrill.testing.MinimalExperiment;
import dev.firedrill.time.Clock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The http-* faults with {@code proxy_kind: toxiproxy}, against WireMock answering as Toxiproxy's
 * README says its API does: toxics created with 200, listed, deleted with 204; errors as {@code
 * {"error": "...", "status": N}} (404 for a missing proxy or toxic, 409 for a toxic that exists);
 * 403 for a browser's User-Agent.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ToxiproxyFaultTest {

  @RegisterExtension
  static final WireMockExtension toxiproxy =
      WireMockExtension.newInstance()
          .options(wireMockConfig().bindAddress("127.0.0.1").dynamicPort())
          .build();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOXICS = "/proxies/payments/toxics";
  private static final String TOXIC = "firedrill-tp-0";
  private static final String ADDED = "added";

  private static String error(String message, int status) {
    return "{\"error\":\"" + message + "\",\"status\":" + status + "}";
  }

  /** One toxic's life on proxy payments: absent, added, deleted; any other proxy is missing. */
  @BeforeEach
  void stubToxiproxy() {
    toxiproxy.stubFor(
        any(anyUrl())
            .atPriority(1)
            .withHeader("User-Agent", matching("Mozilla/.*"))
            .willReturn(
                aResponse().withStatus(403).withBody(error("User agent not allowed", 403))));
    toxiproxy.stubFor(
        any(anyUrl())
            .atPriority(9)
            .willReturn(aResponse().withStatus(404).withBody(error("proxy not found", 404))));
    String toxicJson =
        "{\"name\":\""
            + TOXIC
            + "\",\"type\":\"latency\",\"stream\":\"downstream\",\"toxicity\":0.5,"
            + "\"attributes\":{\"latency\":200,\"jitter\":0}}";
    toxiproxy.stubFor(
        post(urlEqualTo(TOXICS))
            .inScenario("toxic")
            .whenScenarioStateIs(STARTED)
            .willSetStateTo(ADDED)
            .willReturn(aResponse().withStatus(200).withBody(toxicJson)));
    toxiproxy.stubFor(
        post(urlEqualTo(TOXICS))
            .inScenario("toxic")
            .whenScenarioStateIs(ADDED)
            .willReturn(aResponse().withStatus(409).withBody(error("toxic already exists", 409))));
    toxiproxy.stubFor(
        get(urlEqualTo(TOXICS))
            .inScenario("toxic")
            .whenScenarioStateIs(STARTED)
            .willReturn(aResponse().withStatus(200).withBody("[]")));
    toxiproxy.stubFor(
        get(urlEqualTo(TOXICS))
            .inScenario("toxic")
            .whenScenarioStateIs(ADDED)
            .willReturn(aResponse().withStatus(200).withBody("[" + toxicJson + "]")));
    toxiproxy.stubFor(
        delete(urlEqualTo(TOXICS + "/" + TOXIC))
            .inScenario("toxic")
            .whenScenarioStateIs(ADDED)
            .willSetStateTo(STARTED)
            .willReturn(aResponse().withStatus(204)));
    toxiproxy.stubFor(
        delete(urlEqualTo(TOXICS + "/" + TOXIC))
            .inScenario("toxic")
            .whenScenarioStateIs(STARTED)
            .willReturn(aResponse().withStatus(404).withBody(error("toxic not found", 404))));
  }

  private static URI admin() {
    return URI.create("http://127.0.0.1:" + toxiproxy.getPort());
  }

  private static HttpToxic spec(String proxyName, HttpToxic.Effect effect) {
    return new HttpToxic(
        admin(),
        proxyName,
        0.5,
        effect,
        Optional.of(Duration.ofMinutes(5)),
        Optional.empty(),
        HttpToxic.ProxyKind.TOXIPROXY);
  }

  private static FaultContext context() {
    return new FaultContext(
        "tp",
        new BlastRadius(0.5, Duration.ofHours(1), 0.05, 1, 1),
        Duration.ofSeconds(1),
        ProcessTable.system(),
        WorkerLauncher.current(),
        Clock.system());
  }

  private static final HttpToxic.Latency LATENCY =
      new HttpToxic.Latency(Duration.ofMillis(200), Duration.ZERO);

  @Test
  void theStubRefusesABrowserAsToxiproxyDoesAndFiredrillSaysWhoItIs() throws Exception {
    HttpResponse<String> browser =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(admin().resolve(TOXICS))
                    .header("User-Agent", "Mozilla/5.0 (X11; Linux x86_64)")
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(browser.statusCode()).isEqualTo(403);

    Fault fault = Faults.create(spec("payments", LATENCY), context(), 0);
    fault.inject();

    toxiproxy.verify(
        postRequestedFor(urlEqualTo(TOXICS)).withHeader("User-Agent", equalTo("firedrill")));
  }

  @Test
  void latencyBecomesToxiproxysLatencyToxicWithoutATtlAndTheWatchdogHoldsIt() throws Exception {
    Fault fault = Faults.create(spec("payments", LATENCY), context(), 0);
    String body =
        "{\"name\":\"firedrill-tp-0\",\"type\":\"latency\",\"stream\":\"downstream\","
            + "\"toxicity\":0.5,\"attributes\":{\"latency\":200,\"jitter\":0}}";

    assertThat(fault.ttlEnforcer()).isEqualTo(TtlEnforcer.WATCHDOG);
    assertThat(fault.plan())
        .containsExactly(
            "POST " + admin() + TOXICS + " " + body,
            "Toxiproxy has no ttl: at the end, or by the watchdog 5m after injection if firedrill"
                + " dies, DELETE "
                + admin()
                + TOXICS
                + "/firedrill-tp-0; verified by GET "
                + admin()
                + TOXICS
                + " no longer listing firedrill-tp-0");
    assertThat(fault.verify().reverted()).isTrue();

    fault.inject();

    toxiproxy.verify(postRequestedFor(urlEqualTo(TOXICS)).withRequestBody(equalToJson(body)));
    assertThat(fault.verify())
        .isEqualTo(Verification.remaining("toxic firedrill-tp-0 still on proxy payments"));
    assertThatThrownBy(fault::inject)
        .isInstanceOf(FaultException.class)
        .hasMessageStartingWith(
            "http-latency: toxic firedrill-tp-0 already exists on proxy payments at " + admin());

    // What the watchdog and cleanup do: the spec from the journal's entry, the state through JSON.
    FaultKinds kinds = FaultKinds.installed();
    FaultSpec read =
        kinds.readJournal(JSON.readTree(JSON.writeValueAsString(kinds.writeJournal(fault.spec()))));
    Fault restored = kinds.restore(read, context(), Contexts.throughJson(fault.state()));
    restored.revert();

    assertThat(read).isEqualTo(fault.spec());
    toxiproxy.verify(deleteRequestedFor(urlEqualTo(TOXICS + "/firedrill-tp-0")));
    assertThat(restored.verify())
        .isEqualTo(
            Verification.reverted(
                "removed toxic firedrill-tp-0 from proxy payments; verified: the proxy no longer"
                    + " lists it"));
    fault.revert(); // Toxiproxy's 404 for a toxic already gone: done
    assertThat(fault.verify())
        .isEqualTo(
            Verification.reverted(
                "toxic firedrill-tp-0 was already gone from proxy payments; verified: the proxy no"
                    + " longer lists it"));
  }

  @Test
  void resetAndTimeoutMapToToxiproxysOwnTypes() throws Exception {
    String reset =
        ((HttpToxicFault) Faults.create(spec("payments", new HttpToxic.Reset()), context(), 0))
            .body(Duration.ofMinutes(5));
    String timeout =
        ((HttpToxicFault)
                Faults.create(
                    spec("payments", new HttpToxic.Timeout(Duration.ofSeconds(2))), context(), 0))
            .body(Duration.ofMinutes(5));

    assertThat(JSON.readTree(reset))
        .isEqualTo(
            JSON.readTree(
                "{\"name\":\"firedrill-tp-0\",\"type\":\"reset_peer\",\"attributes\":"
                    + "{\"timeout\":0},\"stream\":\"upstream\",\"toxicity\":0.5}"));
    assertThat(JSON.readTree(timeout))
        .isEqualTo(
            JSON.readTree(
                "{\"name\":\"firedrill-tp-0\",\"type\":\"timeout\",\"attributes\":"
                    + "{\"timeout\":2000},\"stream\":\"upstream\",\"toxicity\":0.5}"));
  }

  @Test
  void aMissingProxyIsNamedWithToxiproxysOwnError() {
    Fault fault = Faults.create(spec("orders", LATENCY), context(), 0);

    assertThatThrownBy(fault::inject)
        .isInstanceOf(FaultException.class)
        .hasMessage(
            "http-latency: POST "
                + admin()
                + "/proxies/orders/toxics answered 404 proxy not found; expected a proxy named"
                + " orders on "
                + admin()
                + " (GET "
                + admin()
                + "/proxies lists them)");
    assertThat(fault.verify())
        .isEqualTo(
            Verification.reverted(
                "toxic firedrill-tp-0 is not on proxy orders; verified: the proxy itself is"
                    + " gone (404), and its toxics with it"));
  }

  @Test
  void anHttpErrorOnToxiproxyIsRefusedNamingProxyKind() {
    String fault =
        "    - kind: http-error\n"
            + "      proxy: http://127.0.0.1:8474\n"
            + "      proxy_kind: toxiproxy\n"
            + "      status: 503\n"
            + "      share: 0.05\n"
            + "      ttl: 15m\n";

    assertThat(
            MinimalExperiment.problems(
                MinimalExperiment.replace(
                    MinimalExperiment.TEXT,
                    "    - kind: process-kill\n      match: payments-server\n",
                    fault)))
        .singleElement()
        .asString()
        .contains("/method/faults/0/proxy_kind")
        .contains("http-error answers an HTTP status, and Toxiproxy has no toxic that does");
  }

  @Test
  void theFileSaysToxiproxyAndTheJournalKeepsIt() {
    String fault =
        "    - kind: http-latency\n"
            + "      proxy: http://127.0.0.1:8474\n"
            + "      proxy_kind: toxiproxy\n"
            + "      latency: 200ms\n"
            + "      share: 0.05\n"
            + "      ttl: 15m\n";
    var experiment =
        MinimalExperiment.load(
            MinimalExperiment.replace(
                MinimalExperiment.TEXT,
                "    - kind: process-kill\n      match: payments-server\n",
                fault));
    HttpToxic spec = (HttpToxic) experiment.method().faults().get(0);

    assertThat(spec.proxyKind()).isEqualTo(HttpToxic.ProxyKind.TOXIPROXY);
    assertThat(FaultKinds.installed().writeJournal(spec).path("proxy_kind").asText())
        .isEqualTo("toxiproxy");
    assertThat(Map.of("k", spec.proxyKind().text())).containsEntry("k", "toxiproxy");
  }
}
