package dev.firedrill.marker.grafana;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.Milestone;
import dev.firedrill.engine.Phase;
import dev.firedrill.engine.Verdict;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.GrafanaTarget;
import dev.firedrill.experiment.Method;
import dev.firedrill.experiment.TokenSource;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.testing.ScriptedFault;
import dev.firedrill.time.VirtualClock;
import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The annotation sink against WireMock stubs shaped like Grafana's annotations API: the exact
 * bodies, the region's end, the abort, and each way Grafana can fail.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GrafanaAnnotationsTest {

  @RegisterExtension
  static final WireMockExtension grafana =
      WireMockExtension.newInstance()
          .options(wireMockConfig().bindAddress("127.0.0.1").dynamicPort())
          .build();

  private static final String TOKEN = "glsa_s3cr3t-token-value";
  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String SPAN_ID = "00f067aa0ba902b7";
  private static final Instant INJECTED = ScriptedDrill.START.plusSeconds(5);
  private static final Instant ROLLED_BACK = ScriptedDrill.START.plusSeconds(65);
  private static final String ADDED = "{\"message\":\"Annotation added\",\"id\":1}";
  private static final String PATCHED = "{\"message\":\"Annotation patched\"}";
  private static final String TEXT = "Checkout under CPU pressure \u2014 errors stay under 1%";

  private final VirtualClock backoff = VirtualClock.at("2030-01-01T00:00:00Z");
  private final List<String> notes = new CopyOnWriteArrayList<>();

  private String base() {
    return "http://127.0.0.1:" + grafana.getPort();
  }

  private GrafanaTarget target(
      Optional<String> dashboardUid, Optional<Integer> panelId, Duration timeout) {
    return new GrafanaTarget(
        URI.create(base()),
        dashboardUid,
        panelId,
        new TokenSource.FromEnv("GRAFANA_TOKEN"),
        timeout);
  }

  private GrafanaAnnotations sink(GrafanaTarget target) {
    return new GrafanaAnnotations(target, Optional.of(TOKEN), backoff, notes::add);
  }

  /** Generous, so that a loaded build machine never turns a stub's answer into a timeout. */
  private static final Duration PATIENT = Duration.ofSeconds(10);

  private GrafanaAnnotations orgSink() {
    return sink(target(Optional.empty(), Optional.empty(), PATIENT));
  }

  /** Two faults of two kinds on two targets. */
  private static Experiment experiment() {
    return new ScriptedDrill()
        .experiment()
        .method(
            new Method(
                Duration.ofSeconds(60),
                List.of(
                    new FaultSpec.ProcessKill(
                        "payments-server",
                        "KILL",
                        Optional.empty(),
                        Optional.of(Duration.ofMinutes(5))),
                    new FaultSpec.CpuBurn(2, Optional.of(Duration.ofMinutes(5))))))
        .build();
  }

  private static final String TAGS =
      "[\"chaos\", \"checkout-latency\", \"payments-server\", \"localhost\", \"process-kill\", \"cpu-burn\"]";

  /**
   * The milestones of a drill with both faults injected and reverted; an abort when {@code abort}
   * is set.
   */
  private static void drill(GrafanaAnnotations sink, Optional<String> abort) {
    drill(sink, abort, List.of());
  }

  /** {@link #drill(GrafanaAnnotations, Optional)} where the first fault selects {@code pods}. */
  private static void drill(GrafanaAnnotations sink, Optional<String> abort, List<String> pods) {
    Experiment experiment = experiment();
    FaultSpec kill = experiment.method().faults().get(0);
    FaultSpec burn = experiment.method().faults().get(1);
    sink.on(new Milestone.DrillStarted(experiment, ScriptedDrill.START, Duration.ZERO));
    sink.on(new Milestone.PhaseStarted(Phase.PREFLIGHT, ScriptedDrill.START, Duration.ZERO));
    sink.on(new Milestone.PhaseStarted(Phase.INJECT, INJECTED, since(INJECTED)));
    sink.on(new Milestone.FaultInjecting(0, kill, INJECTED, since(INJECTED)));
    Instant killed = INJECTED.plusMillis(20);
    sink.on(
        new Milestone.FaultInjected(
            0, kill, List.of(), Map.of(), Optional.empty(), pods, killed, since(killed)));
    sink.on(
        new Milestone.FaultInjecting(
            1, burn, INJECTED.plusMillis(20), since(INJECTED.plusMillis(20))));
    sink.on(ScriptedDrill.injected(1, burn, INJECTED.plusMillis(40)));
    sink.on(
        new Milestone.PhaseStarted(
            Phase.DURING, INJECTED.plusMillis(40), since(INJECTED.plusMillis(40))));
    abort.ifPresent(
        reason ->
            sink.on(
                new Milestone.Aborted(
                    reason, ROLLED_BACK.minusSeconds(1), since(ROLLED_BACK.minusSeconds(1)))));
    sink.on(
        new Milestone.PhaseStarted(
            Phase.ROLLBACK, ROLLED_BACK.minusSeconds(1), since(ROLLED_BACK.minusSeconds(1))));
    sink.on(
        new Milestone.FaultReverting(
            1, burn, ROLLED_BACK.minusSeconds(1), since(ROLLED_BACK.minusSeconds(1))));
    sink.on(ScriptedDrill.reverted(1, burn, ROLLED_BACK.minusMillis(500)));
    sink.on(
        new Milestone.FaultReverting(
            0, kill, ROLLED_BACK.minusMillis(500), since(ROLLED_BACK.minusMillis(500))));
    sink.on(ScriptedDrill.reverted(0, kill, ROLLED_BACK));
    sink.on(new Milestone.PhaseStarted(Phase.AFTER, ROLLED_BACK, since(ROLLED_BACK)));
    sink.on(
        new Milestone.DrillFinished(
            abort.isPresent() ? Verdict.ABORTED : Verdict.HELD,
            "done",
            abort,
            List.of(),
            ROLLED_BACK.plusSeconds(30),
            since(ROLLED_BACK.plusSeconds(30))));
  }

  private static Duration since(Instant at) {
    return ScriptedDrill.since(at);
  }

  private static void stubAddedAndPatched() {
    grafana.stubFor(
        post("/api/annotations")
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "application/json")
                    .withBody(ADDED)));
    grafana.stubFor(
        patch(urlEqualTo("/api/annotations/1"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "application/json")
                    .withBody(PATCHED)));
  }

  private void assertNoTokenInNotes() {
    assertThat(notes).noneMatch(note -> note.contains(TOKEN));
  }

  @Test
  void aPanelAnnotationStartsAtInjectionAndBecomesARegionAtTheLastRevert() {
    stubAddedAndPatched();
    GrafanaAnnotations sink = sink(target(Optional.of("firedrill-lab"), Optional.of(4), PATIENT));
    SpanContext span =
        SpanContext.create(TRACE_ID, SPAN_ID, TraceFlags.getSampled(), TraceState.getDefault());
    Context drill =
        Context.root()
            .with(Span.wrap(span))
            .with(Baggage.builder().put("chaos.experiment.id", "checkout-latency").build());

    try (Scope ignored = drill.makeCurrent()) {
      drill(sink, Optional.empty());
    }
    sink.close(Duration.ofSeconds(30));

    grafana.verify(
        1,
        postRequestedFor(urlEqualTo("/api/annotations"))
            .withRequestBody(
                equalToJson(
                    "{\"dashboardUID\":\"firedrill-lab\",\"panelId\":4,\"time\":"
                        + INJECTED.toEpochMilli()
                        + ",\"tags\":"
                        + TAGS
                        + ",\"text\":\""
                        + TEXT
                        + "\"}",
                    false,
                    false))
            .withHeader("Content-Type", equalTo("application/json"))
            .withHeader("Authorization", equalTo("Bearer " + TOKEN))
            .withHeader("traceparent", equalTo("00-" + TRACE_ID + "-" + SPAN_ID + "-01"))
            .withHeader("baggage", equalTo("chaos.experiment.id=checkout-latency")));
    grafana.verify(
        1,
        patchRequestedFor(urlEqualTo("/api/annotations/1"))
            .withRequestBody(
                equalToJson("{\"timeEnd\":" + ROLLED_BACK.toEpochMilli() + "}", false, false))
            .withHeader("Authorization", equalTo("Bearer " + TOKEN))
            .withHeader("traceparent", equalTo("00-" + TRACE_ID + "-" + SPAN_ID + "-01")));
    assertThat(grafana.getAllServeEvents()).hasSize(2);
    assertThat(notes)
        .containsExactly("annotation 1 added at " + base(), "annotation 1 is now a region");
    assertNoTokenInNotes();
  }

  @Test
  void withoutADashboardItIsAnOrganizationAnnotation() {
    stubAddedAndPatched();
    GrafanaAnnotations sink = orgSink();

    drill(sink, Optional.empty());
    sink.close(Duration.ofSeconds(30));

    grafana.verify(
        1,
        postRequestedFor(urlEqualTo("/api/annotations"))
            .withRequestBody(
                equalToJson(
                    "{\"time\":"
                        + INJECTED.toEpochMilli()
                        + ",\"tags\":"
                        + TAGS
                        + ",\"text\":\""
                        + TEXT
                        + "\"}",
                    false,
                    false)));
    grafana.verify(1, patchRequestedFor(urlEqualTo("/api/annotations/1")));
  }

  @Test
  void anAbortAddsTheTagAndTheReasonToTheRegion() {
    stubAddedAndPatched();
    GrafanaAnnotations sink = orgSink();

    drill(sink, Optional.of("burn rate 200 above 100"));
    sink.close(Duration.ofSeconds(30));

    String abortedTags = TAGS.replace("]", ", \"aborted\"]");
    grafana.verify(
        1,
        patchRequestedFor(urlEqualTo("/api/annotations/1"))
            .withRequestBody(
                equalToJson(
                    "{\"timeEnd\":"
                        + ROLLED_BACK.toEpochMilli()
                        + ",\"tags\":"
                        + abortedTags
                        + ",\"text\":\""
                        + TEXT
                        + " \u2014 aborted: burn rate 200 above 100\"}",
                    false,
                    false)));
  }

  @Test
  void theRegionEndNamesThePodsTheFaultsSelected() {
    stubAddedAndPatched();
    GrafanaAnnotations sink = orgSink();

    drill(sink, Optional.empty(), List.of("checkout-7d9f-a", "checkout-7d9f-b"));
    sink.close(Duration.ofSeconds(30));

    grafana.verify(
        1,
        postRequestedFor(urlEqualTo("/api/annotations"))
            .withRequestBody(matchingJsonPath("$.tags", equalToJson(TAGS))));
    grafana.verify(
        1,
        patchRequestedFor(urlEqualTo("/api/annotations/1"))
            .withRequestBody(
                equalToJson(
                    "{\"timeEnd\":"
                        + ROLLED_BACK.toEpochMilli()
                        + ",\"tags\":"
                        + TAGS.replace("]", ", \"checkout-7d9f-a\", \"checkout-7d9f-b\"]")
                        + "}",
                    false,
                    false)));
  }

  @Test
  void aDrillThatNeverInjectsIsNotAnnotated() {
    GrafanaAnnotations sink = orgSink();
    Experiment experiment = experiment();

    sink.on(new Milestone.DrillStarted(experiment, ScriptedDrill.START, Duration.ZERO));
    sink.on(new Milestone.PhaseStarted(Phase.PREFLIGHT, ScriptedDrill.START, Duration.ZERO));
    sink.on(
        new Milestone.DrillFinished(
            Verdict.NOT_RUN,
            "outside steady state",
            Optional.empty(),
            List.of(),
            INJECTED,
            since(INJECTED)));
    sink.close(Duration.ofSeconds(30));

    assertThat(grafana.getAllServeEvents()).isEmpty();
    assertThat(notes).isEmpty();
  }

  @Test
  void aGrafanaThatRefusesConnectionsIsRetriedThriceThenTheRegionEndIsSkipped() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    GrafanaTarget nothing =
        new GrafanaTarget(
            URI.create("http://127.0.0.1:" + port),
            Optional.empty(),
            Optional.empty(),
            TokenSource.none(),
            Duration.ofSeconds(2));
    GrafanaAnnotations sink =
        new GrafanaAnnotations(nothing, Optional.empty(), backoff, notes::add);

    drill(sink, Optional.empty());
    sink.close(Duration.ofSeconds(20));

    String post = "POST http://127.0.0.1:" + port + "/api/annotations: cannot connect";
    assertThat(notes)
        .containsExactly(
            post + "; retrying in 500ms (attempt 1 of 3)",
            post + "; retrying in 1s (attempt 2 of 3)",
            post + "; gave up after 3 attempts; no annotation was created",
            "region end not sent: the annotation was never created");
    assertThat(backoff.now()).isEqualTo(Instant.parse("2030-01-01T00:00:01.500Z"));
  }

  @Test
  void a500IsRetriedAfterABackoffAndTheRetryCreatesTheRegion() {
    grafana.stubFor(
        post("/api/annotations")
            .inScenario("flaky")
            .whenScenarioStateIs(Scenario.STARTED)
            .willReturn(
                aResponse().withStatus(500).withBody("{\"message\":\"Failed to save annotation\"}"))
            .willSetStateTo("recovered"));
    grafana.stubFor(
        post("/api/annotations")
            .inScenario("flaky")
            .whenScenarioStateIs("recovered")
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withBody("{\"message\":\"Annotation added\",\"id\":42}")));
    grafana.stubFor(
        patch(urlEqualTo("/api/annotations/42"))
            .willReturn(aResponse().withStatus(200).withBody(PATCHED)));
    GrafanaAnnotations sink = orgSink();

    drill(sink, Optional.empty());
    sink.close(Duration.ofSeconds(30));

    grafana.verify(2, postRequestedFor(urlEqualTo("/api/annotations")));
    grafana.verify(
        1,
        patchRequestedFor(urlEqualTo("/api/annotations/42"))
            .withRequestBody(
                equalToJson("{\"timeEnd\":" + ROLLED_BACK.toEpochMilli() + "}", false, false)));
    assertThat(notes)
        .containsExactly(
            "POST "
                + base()
                + "/api/annotations: HTTP 500 \"Failed to save annotation\"; retrying in 500ms (attempt 1 of 3)",
            "annotation 42 added at " + base(),
            "annotation 42 is now a region");
    assertThat(backoff.now()).isEqualTo(Instant.parse("2030-01-01T00:00:00.500Z"));
  }

  @Test
  void a401IsNotRetriedAndItsNoteNamesTheStatusButNeverTheToken() {
    grafana.stubFor(
        post("/api/annotations")
            .willReturn(
                aResponse()
                    .withStatus(401)
                    .withBody("{\"message\":\"invalid API key " + TOKEN + "\"}")));
    GrafanaAnnotations sink = orgSink();

    drill(sink, Optional.empty());
    sink.close(Duration.ofSeconds(30));

    grafana.verify(1, anyRequestedFor(anyUrl()));
    assertThat(notes)
        .containsExactly(
            "POST "
                + base()
                + "/api/annotations: HTTP 401 \"invalid API key [redacted]\"; not retried;"
                + " no annotation was created",
            "region end not sent: the annotation was never created");
    assertNoTokenInNotes();
    assertThat(backoff.now()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
  }

  @Test
  void aFailedRegionEndSaysTheAnnotationStaysAPoint() {
    grafana.stubFor(
        post("/api/annotations").willReturn(aResponse().withStatus(200).withBody(ADDED)));
    grafana.stubFor(
        patch(urlEqualTo("/api/annotations/1"))
            .willReturn(
                aResponse().withStatus(404).withBody("{\"message\":\"Annotation not found\"}")));
    GrafanaAnnotations sink = orgSink();

    drill(sink, Optional.empty());
    sink.close(Duration.ofSeconds(30));

    assertThat(notes)
        .containsExactly(
            "annotation 1 added at " + base(),
            "PATCH "
                + base()
                + "/api/annotations/1: HTTP 404 \"Annotation not found\"; not retried;"
                + " annotation 1 stays a point in time, not a region");
  }

  /**
   * A Grafana of its own that answers after {@code delayMillis}, so that its late answers never
   * reach the other tests' stubs.
   */
  private static WireMockServer slowGrafana(int delayMillis) {
    WireMockServer server =
        new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());
    server.start();
    server.stubFor(
        post("/api/annotations")
            .willReturn(aResponse().withStatus(200).withBody(ADDED).withFixedDelay(delayMillis)));
    return server;
  }

  private GrafanaAnnotations sink(WireMockServer server, Duration timeout) {
    return new GrafanaAnnotations(
        new GrafanaTarget(
            URI.create("http://127.0.0.1:" + server.port()),
            Optional.empty(),
            Optional.empty(),
            TokenSource.none(),
            timeout),
        Optional.empty(),
        backoff,
        notes::add);
  }

  @Test
  void aGrafanaSlowerThanTheTimeoutCountsAsNoAnswerAndIsRetried() {
    WireMockServer slow = slowGrafana(1_500);
    try {
      GrafanaAnnotations sink = sink(slow, Duration.ofMillis(200));

      drill(sink, Optional.empty());
      sink.close(Duration.ofSeconds(20));

      String post =
          "POST http://127.0.0.1:" + slow.port() + "/api/annotations: no answer within 200ms";
      assertThat(notes)
          .containsExactly(
              post + "; retrying in 500ms (attempt 1 of 3)",
              post + "; retrying in 1s (attempt 2 of 3)",
              post + "; gave up after 3 attempts; no annotation was created",
              "region end not sent: the annotation was never created");
    } finally {
      slow.stop();
    }
  }

  @Test
  void aHangingGrafanaNeverHoldsTheDrillsThreadAndCloseGivesUpAtItsLimit() {
    WireMockServer hanging = slowGrafana(8_000);
    try {
      // Each attempt may take 5 s: had on() waited for Grafana, a note would exist when it
      // returned.
      GrafanaAnnotations sink = sink(hanging, Duration.ofSeconds(5));

      drill(sink, Optional.empty());
      assertThat(notes).isEmpty();
      sink.close(Duration.ofMillis(300));

      assertThat(notes)
          .containsExactly(
              "gave up after 300ms waiting for Grafana; not sent: "
                  + "POST /api/annotations (region start), PATCH /api/annotations/:id (region end)");
    } finally {
      hanging.stop();
    }
  }

  @Test
  void closeWaitsForOneRequestsAttemptsAndBackoffs() {
    assertThat(
            GrafanaAnnotations.closeWait(
                target(Optional.empty(), Optional.empty(), Duration.ofSeconds(2))))
        .isEqualTo(Duration.ofMillis(7_500));
  }

  @Test
  void aWholeDrillRollsBackWhileGrafanaAnswers500() {
    grafana.stubFor(
        post("/api/annotations")
            .willReturn(
                aResponse()
                    .withStatus(500)
                    .withBody("{\"message\":\"Failed to save annotation\"}")));
    ScriptedDrill drill = new ScriptedDrill();
    ScriptedFault burn = drill.fault("burn");
    GrafanaAnnotations sink = orgSink();

    DrillResult result = drill.observer(sink).run();
    sink.close(Duration.ofSeconds(30));

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    assertThat(drill.log())
        .filteredOn(call -> !call.startsWith("measure"))
        .containsExactly("inject burn", "revert burn");
    assertThat(burn.applied()).isFalse();
    grafana.verify(
        3,
        postRequestedFor(urlEqualTo("/api/annotations"))
            .withRequestBody(
                equalToJson(
                    "{\"time\":"
                        + ScriptedDrill.START.toEpochMilli()
                        + ",\"tags\":[\"chaos\",\"checkout-latency\",\"localhost\",\"cpu-burn\"],\"text\":\""
                        + TEXT
                        + "\"}",
                    false,
                    false))
            .withHeader("traceparent", absent()));
    assertThat(notes).last().isEqualTo("region end not sent: the annotation was never created");
    assertThat(notes)
        .element(2)
        .isEqualTo(
            "POST "
                + base()
                + "/api/annotations: HTTP 500 \"Failed to save annotation\";"
                + " gave up after 3 attempts; no annotation was created");
  }

  @Test
  void anOrganizationIdGoesInTheHeaderOfEveryRequest() {
    stubAddedAndPatched();
    GrafanaAnnotations sink =
        sink(
            new GrafanaTarget(
                URI.create(base()),
                Optional.empty(),
                Optional.empty(),
                dev.firedrill.http.HttpSettings.bearer(Optional.empty()),
                PATIENT,
                Optional.of(2L)));

    drill(sink, Optional.empty());
    sink.close(Duration.ofSeconds(30));

    grafana.verify(
        1,
        postRequestedFor(urlEqualTo("/api/annotations"))
            .withHeader("X-Grafana-Org-Id", equalTo("2")));
    grafana.verify(
        1,
        patchRequestedFor(urlEqualTo("/api/annotations/1"))
            .withHeader("X-Grafana-Org-Id", equalTo("2")));
  }

  @Test
  void aPostThatGotNoAnswerButWasCreatedIsFoundByItsTagsAndTimeAndNotSentAgain() {
    WireMockServer slow = slowGrafana(1_500);
    try {
      // Grafana created the annotation (id 41) but answered after the client gave up.
      slow.stubFor(
          com.github.tomakehurst.wiremock.client.WireMock.get(
                  com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo(
                      "/api/annotations"))
              .withQueryParam("from", equalTo(Long.toString(INJECTED.toEpochMilli())))
              .withQueryParam("to", equalTo(Long.toString(INJECTED.toEpochMilli())))
              .withQueryParam("type", equalTo("annotation"))
              .withQueryParam("tags", equalTo("checkout-latency"))
              .willReturn(
                  aResponse()
                      .withStatus(200)
                      .withHeader("Content-Type", "application/json")
                      .withBody(
                          "[{\"id\":40,\"time\":"
                              + INJECTED.toEpochMilli()
                              + ",\"timeEnd\":"
                              + INJECTED.toEpochMilli()
                              + ",\"text\":\"another drill\",\"tags\":[\"chaos\"]},"
                              + "{\"id\":41,\"alertId\":0,\"dashboardUID\":\"\",\"panelId\":0,"
                              + "\"time\":"
                              + INJECTED.toEpochMilli()
                              + ",\"timeEnd\":"
                              + INJECTED.toEpochMilli()
                              + ",\"text\":\""
                              + TEXT
                              + "\",\"tags\":"
                              + TAGS
                              + ",\"data\":{}}]")));
      slow.stubFor(
          patch(urlEqualTo("/api/annotations/41"))
              .willReturn(aResponse().withStatus(200).withBody(PATCHED)));
      GrafanaAnnotations sink = sink(slow, Duration.ofMillis(200));

      drill(sink, Optional.empty());
      sink.close(Duration.ofSeconds(20));

      slow.verify(1, postRequestedFor(urlEqualTo("/api/annotations")));
      slow.verify(1, patchRequestedFor(urlEqualTo("/api/annotations/41")));
      assertThat(notes)
          .containsExactly(
              "POST http://127.0.0.1:"
                  + slow.port()
                  + "/api/annotations: no answer within 200ms; it took effect all the same, so it"
                  + " is not sent again",
              "annotation 41 added at http://127.0.0.1:" + slow.port(),
              "annotation 41 is now a region");
    } finally {
      slow.stop();
    }
  }
}
