package dev.firedrill.marker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.engine.DrillObserver;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.Milestone;
import dev.firedrill.engine.Verdict;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.Hypothesis;
import dev.firedrill.experiment.MetricsExport;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.testing.ScriptedFault;
import dev.firedrill.testing.StubHttpServer;
import dev.firedrill.time.Clock;
import dev.firedrill.time.VirtualClock;
import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Pushes to a stub Pushgateway: what is sent, in which order, and what a failing one costs. */
class PusherTest {

  private static final String ACTIVE_1 =
      "chaos_experiment_active{experiment=\"push-test\",fault=\"http-latency\",target=\"payments\"} 1.0";
  private static final String ACTIVE_0 =
      "chaos_experiment_active{experiment=\"push-test\",fault=\"http-latency\",target=\"payments\"} 0.0";
  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String SPAN_ID = "00f067aa0ba902b7";

  private final StubHttpServer pushgateway = StubHttpServer.start().respond(200, "text/plain", "");
  private final VirtualClock clock = new VirtualClock(ScriptedDrill.START);
  private final ScriptedDrill drill = new ScriptedDrill(clock);
  private final ScriptedFault latency = drill.fault("latency", ScriptedDrill.HTTP_LATENCY);
  private final List<String> notes = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    pushgateway.close();
  }

  private MetricsSink open(URI url, Clock sinkClock) {
    return MetricsSink.open(
        "push-test",
        new MetricsExport(Optional.empty(), Duration.ofSeconds(5), Optional.of(url)),
        sinkClock,
        notes::add);
  }

  private Experiment experiment() {
    return drill
        .experiment("push-test")
        .method(drill.method(Duration.ofSeconds(10)))
        .hypothesis(new Hypothesis("errors stay under 1%", Duration.ofSeconds(5)))
        .build();
  }

  private String group() {
    return "/metrics/job/firedrill/experiment/push-test";
  }

  /**
   * Holds the drill (in the test, not in the sink) until the stub has the 1, so coalescing cannot
   * hide it.
   */
  private DrillObserver awaitOne() {
    return milestone -> {
      if (milestone instanceof Milestone.FaultInjected) {
        Clock real = Clock.system();
        long deadline = real.nanoTime() + Duration.ofSeconds(5).toNanos();
        try {
          while (pushgateway.requests().stream().noneMatch(r -> r.body().contains(ACTIVE_1))
              && real.nanoTime() < deadline) {
            real.sleep(Duration.ofMillis(20));
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
  }

  @Test
  void pushesTheOneThenTheZeroAndTheVerdictThenDeletesTheGroup() {
    MetricsSink sink = open(pushgateway.url(""), clock);
    DrillResult result =
        drill.observer(DrillObserver.composite(List.of(sink, awaitOne()))).run(experiment());
    sink.close(Duration.ofSeconds(10));

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    List<StubHttpServer.Request> requests = pushgateway.requests();
    assertThat(requests).extracting(StubHttpServer.Request::path).containsOnly(group());
    assertThat(requests).extracting(StubHttpServer.Request::method).last().isEqualTo("DELETE");
    assertThat(requests.subList(0, requests.size() - 1))
        .extracting(StubHttpServer.Request::method)
        .containsOnly("PUT");
    assertThat(requests).anyMatch(r -> r.body().contains(ACTIVE_1));
    StubHttpServer.Request last = requests.get(requests.size() - 2);
    assertThat(last.body())
        .contains(
            ACTIVE_0,
            "chaos_experiment_verdict{experiment=\"push-test\",verdict=\"held\"} 1.0",
            "chaos_experiment_phase{experiment=\"push-test\",phase=\"verdict\"} 1.0");
    assertThat(last.headers())
        .containsEntry("content-type", "text/plain; version=0.0.4; charset=utf-8");
    assertThat(notes).isEmpty();
  }

  @Test
  void theHoldKeepsTheZeroInTheGroupForScrapeWaitBeforeTheDelete() {
    MetricsSink sink = open(pushgateway.url(""), clock);
    drill.observer(DrillObserver.composite(List.of(sink, awaitOne()))).run(experiment());
    // The drill recovered at once: on the virtual clock the rollback, the push of the 0 and the end
    // are one instant.
    long end = clock.nanoTime();

    sink.close(Duration.ofSeconds(20));

    assertThat(pushgateway.lastRequest().method()).isEqualTo("DELETE");
    assertThat(Duration.ofNanos(clock.nanoTime() - end)).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void everyRequestCarriesTheDrillsTraceparentAndBaggage() {
    MetricsSink sink = open(pushgateway.url(""), clock);
    Context drillContext =
        Context.root()
            .with(
                Span.wrap(
                    SpanContext.create(
                        TRACE_ID, SPAN_ID, TraceFlags.getSampled(), TraceState.getDefault())))
            .with(Baggage.builder().put("chaos.experiment.id", "push-test").build());
    try (Scope ignored = drillContext.makeCurrent()) {
      drill.observer(sink).run(experiment());
    }
    sink.close(Duration.ofSeconds(10));

    assertThat(pushgateway.requests())
        .isNotEmpty()
        .allSatisfy(
            request ->
                assertThat(request.headers())
                    .containsEntry("traceparent", "00-" + TRACE_ID + "-" + SPAN_ID + "-01")
                    .containsEntry("baggage", "chaos.experiment.id=push-test"));
  }

  @Test
  void aFailingPushgatewayIsOneNoteWithItsStatusAndTheDrillRunsOn() {
    pushgateway.respond(503, "text/plain", "overloaded\nsecond line");
    MetricsSink sink = open(pushgateway.url(""), clock);
    DrillResult result = drill.observer(sink).run(experiment());
    sink.close(Duration.ofSeconds(10));

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    String url = pushgateway.url(group()).toString();
    assertThat(notes)
        .containsExactly(
            "metrics: pushgateway PUT " + url + " answered 503: overloaded",
            "metrics: pushgateway DELETE "
                + url
                + " answered 503: overloaded; delete the group by hand: curl -X DELETE "
                + url);
  }

  @Test
  void aDeadPushgatewayIsANoteAndTheDrillRunsOn() {
    URI dead = URI.create("http://127.0.0.1:" + StubHttpServer.closedPort());
    MetricsSink sink = open(dead, clock);
    DrillResult result = drill.observer(sink).run(experiment());
    sink.close(Duration.ofSeconds(10));

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    assertThat(result.rollbackOk()).isTrue();
    assertThat(notes)
        .first()
        .asString()
        .startsWith("metrics: pushgateway PUT " + dead + group() + ": connection refused");
  }

  @Test
  void aHangingPushgatewayNeverHoldsTheDrillAndCloseGivesUpAtItsLimit() {
    pushgateway.hang();
    MetricsSink sink = open(pushgateway.url(""), Clock.system());
    DrillResult result = drill.observer(sink).run(experiment());

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    assertThat(latency.applied()).isFalse();
    sink.close(Duration.ofSeconds(1));
    String url = pushgateway.url(group()).toString();
    assertThat(notes)
        .contains(
            "metrics: pushgateway gave up waiting for "
                + url
                + "; delete the group by hand: curl -X DELETE "
                + url);
  }
}
