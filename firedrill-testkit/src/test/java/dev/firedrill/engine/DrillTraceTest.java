package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.http.Propagation;
import dev.firedrill.marker.trace.DrillSpans;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.testing.ScriptedPrometheus;
import dev.firedrill.time.VirtualClock;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanId;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A scripted drill on a test clock, traced by {@link DrillSpans} into the SDK's in-memory exporter:
 * the span tree, its attributes, events and timestamps, and the context the drill thread carries.
 */
class DrillTraceTest {

  private static final AttributeKey<String> EXPERIMENT =
      AttributeKey.stringKey("chaos.experiment.id");

  private final VirtualClock clock = new VirtualClock(ScriptedDrill.START);
  private final ScriptedDrill drill = new ScriptedDrill(clock);
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();

  /**
   * The in-memory exporter forgets its spans when shut down, and closing the sink shuts the SDK
   * down.
   */
  private final SpanExporter keeping =
      new SpanExporter() {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
          return exporter.export(spans);
        }

        @Override
        public CompletableResultCode flush() {
          return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
          return CompletableResultCode.ofSuccess();
        }
      };

  private final DrillSpans spans =
      new DrillSpans(
          SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(keeping)).build(),
          clock);

  /**
   * The headers an HTTP request would carry, captured at each fault's injection (observer after the
   * spans).
   */
  private final List<Map<String, String>> headersAtInjection = new ArrayList<>();

  @Test
  void aHeldDrillIsOneTraceOfPhasesFaultsAndMeasurementsOnTheDrillsClock() {
    drill.fault("burn");

    DrillResult result = run();

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    SpanData root = only("drill checkout-latency");
    assertThat(root.getParentSpanId()).isEqualTo(SpanId.getInvalid());
    assertThat(root.getAttributes().get(EXPERIMENT)).isEqualTo("checkout-latency");
    assertThat(root.getAttributes().get(AttributeKey.stringKey("chaos.experiment.title")))
        .isEqualTo("Checkout under CPU pressure");
    assertThat(root.getAttributes().get(AttributeKey.stringKey("chaos.verdict"))).isEqualTo("held");
    assertThat(root.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    assertThat(exporter.getFinishedSpanItems())
        .extracting(SpanData::getTraceId)
        .containsOnly(root.getTraceId());
    assertThat(start(root)).isEqualTo(ScriptedDrill.START);
    assertThat(end(root)).isEqualTo(only(Milestone.DrillFinished.class).at());

    List<String> phases =
        exporter.getFinishedSpanItems().stream()
            .filter(s -> s.getParentSpanId().equals(root.getSpanId()))
            .map(SpanData::getName)
            .toList();
    assertThat(phases)
        .containsExactlyInAnyOrder("preflight", "inject", "during", "rollback", "after");
    for (Milestone.PhaseStarted started : drill.milestones(Milestone.PhaseStarted.class)) {
      assertThat(start(only(started.phase().name().toLowerCase(java.util.Locale.ROOT))))
          .isEqualTo(started.at());
    }

    SpanData inject = only("inject cpu-burn");
    assertThat(inject.getParentSpanId()).isEqualTo(only("inject").getSpanId());
    assertThat(start(inject)).isEqualTo(only(Milestone.FaultInjecting.class).at());
    assertThat(end(inject)).isEqualTo(only(Milestone.FaultInjected.class).at());
    assertThat(inject.getAttributes().get(AttributeKey.stringKey("chaos.fault.kind")))
        .isEqualTo("cpu-burn");
    assertThat(inject.getAttributes().get(AttributeKey.longKey("chaos.fault.index"))).isZero();
    assertThat(inject.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);

    SpanData revert = only("revert cpu-burn");
    assertThat(revert.getParentSpanId()).isEqualTo(only("rollback").getSpanId());
    assertThat(start(revert)).isEqualTo(only(Milestone.FaultReverting.class).at());
    assertThat(end(revert)).isEqualTo(ScriptedDrill.START.plusSeconds(60));

    List<Milestone.Measured> measured = drill.milestones(Milestone.Measured.class);
    List<SpanData> measures = named("measure");
    assertThat(measures).hasSameSizeAs(measured).isNotEmpty();
    Map<String, String> parentOfMeasure = new LinkedHashMap<>();
    exporter.getFinishedSpanItems().forEach(s -> parentOfMeasure.put(s.getSpanId(), s.getName()));
    for (int i = 0; i < measured.size(); i++) {
      Milestone.Measured m = measured.get(i);
      SpanData span =
          measures.stream()
              .filter(
                  s ->
                      start(s).equals(m.startedAt())
                          && end(s).equals(m.at())
                          && m.phase()
                              .text()
                              .equals(s.getAttributes().get(AttributeKey.stringKey("chaos.phase"))))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no measure span for " + m));
      assertThat(parentOfMeasure.get(span.getParentSpanId()))
          .isEqualTo(
              m.phase() == Phase.PREFLIGHT
                  ? "preflight"
                  : m.phase().name().toLowerCase(java.util.Locale.ROOT));
      assertThat(span.getAttributes().get(AttributeKey.stringKey("chaos.measurement.status")))
          .isEqualTo("ok");
    }
  }

  @Test
  void aBreachAndTheAbortAreEventsAndTheRootEndsInError() {
    drill.fault("burn");
    drill
        .prometheus()
        .answer(ScriptedDrill.ERROR_RATIO, t -> ScriptedPrometheus.value(t >= 15 ? 0.2 : 0.001))
        .answer(
            ScriptedDrill.GUARD_ERROR_RATIO, t -> ScriptedPrometheus.value(t >= 15 ? 0.2 : 0.001));

    run();

    SpanData root = only("drill checkout-latency");
    Milestone.Aborted aborted = only(Milestone.Aborted.class);
    EventData abort =
        root.getEvents().stream()
            .filter(e -> e.getName().equals("drill aborted"))
            .findFirst()
            .orElseThrow();
    assertThat(abort.getAttributes().get(AttributeKey.stringKey("chaos.abort.reason")))
        .isEqualTo(aborted.reason());
    assertThat(abort.getEpochNanos()).isEqualTo(nanos(aborted.at()));
    assertThat(root.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(root.getStatus().getDescription()).isEqualTo(aborted.reason());
    assertThat(root.getAttributes().get(AttributeKey.stringKey("chaos.verdict")))
        .isEqualTo("aborted");

    Milestone.Measured breached =
        drill.milestones(Milestone.Measured.class).stream()
            .filter(m -> m.measurement().status().text().equals("breach"))
            .reduce((a, b) -> b)
            .orElseThrow();
    SpanData span =
        named("measure").stream()
            .filter(s -> end(s).equals(breached.at()))
            .findFirst()
            .orElseThrow();
    List<EventData> breaches =
        span.getEvents().stream().filter(e -> e.getName().equals("guard breach")).toList();
    assertThat(breaches)
        .extracting(e -> e.getAttributes().get(AttributeKey.stringKey("chaos.guard.name")))
        .containsExactlyInAnyOrder("error_ratio", "burn_rate");
    assertThat(breaches).extracting(EventData::getEpochNanos).containsOnly(nanos(breached.at()));
    EventData ratio =
        breaches.stream()
            .filter(
                e ->
                    "error_ratio"
                        .equals(e.getAttributes().get(AttributeKey.stringKey("chaos.guard.name"))))
            .findFirst()
            .orElseThrow();
    assertThat(ratio.getAttributes().get(AttributeKey.doubleKey("chaos.guard.value")))
        .isEqualTo(0.2);
    assertThat(ratio.getAttributes().get(AttributeKey.stringKey("chaos.guard.expected")))
        .isEqualTo("<= 0.01");
  }

  @Test
  void theFaultSpansNameThePodsTheFaultSelected() {
    drill.fault("delete").selects("checkout-7d9f-a", "checkout-7d9f-b");

    run();

    String target = ScriptedDrill.CPU_BURN.targetName() + ": checkout-7d9f-a,checkout-7d9f-b";
    for (String name : List.of("inject cpu-burn", "revert cpu-burn")) {
      SpanData span = only(name);
      assertThat(span.getAttributes().get(AttributeKey.stringKey("chaos.fault.target")))
          .as(name)
          .isEqualTo(target);
      assertThat(span.getAttributes().get(AttributeKey.stringArrayKey("chaos.fault.selected")))
          .as(name)
          .containsExactly("checkout-7d9f-a", "checkout-7d9f-b");
    }
  }

  @Test
  void aFailedInjectionIsASpanInError() {
    drill.fault("burn").failsToInject();

    run();

    SpanData inject = only("inject cpu-burn");
    assertThat(inject.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(inject.getStatus().getDescription()).isEqualTo("burn could not start");
  }

  @Test
  void requestsDuringTheDrillCarryItsTraceAndBaggageAndNoneAfter() {
    drill.fault("burn");
    drill.fault("second");

    run();

    SpanData root = only("drill checkout-latency");
    String traceparent =
        "00-"
            + root.getTraceId()
            + "-"
            + root.getSpanId()
            + "-"
            + root.getSpanContext().getTraceFlags().asHex();
    assertThat(root.getSpanContext().isSampled()).isTrue();
    assertThat(headersAtInjection)
        .hasSize(2)
        .allSatisfy(
            headers -> {
              assertThat(headers.get("traceparent")).isEqualTo(traceparent);
              assertThat(headers.get("baggage")).isEqualTo("chaos.experiment.id=checkout-latency");
            });
    assertThat(Context.current()).isSameAs(Context.root());
  }

  @Test
  void closingADrillThatNeverFinishedEndsItsSpansAndReleasesTheThread() {
    spans.on(
        new Milestone.DrillStarted(drill.experiment().build(), ScriptedDrill.START, Duration.ZERO));
    spans.on(new Milestone.PhaseStarted(Phase.PREFLIGHT, ScriptedDrill.START, Duration.ZERO));
    clock.advance(Duration.ofSeconds(3));

    spans.close(Duration.ofSeconds(5));

    SpanData root = only("drill checkout-latency");
    assertThat(root.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(root.getStatus().getDescription()).isEqualTo("the drill did not finish");
    assertThat(end(root)).isEqualTo(ScriptedDrill.START.plusSeconds(3));
    assertThat(end(only("preflight"))).isEqualTo(ScriptedDrill.START.plusSeconds(3));
    assertThat(Context.current()).isSameAs(Context.root());
  }

  private DrillResult run() {
    DrillObserver headers =
        milestone -> {
          if (milestone instanceof Milestone.FaultInjecting) {
            Map<String, String> sent = new LinkedHashMap<>();
            Propagation.inject(Context.current(), sent::put);
            headersAtInjection.add(sent);
          }
        };
    DrillResult result = drill.observer(DrillObserver.composite(List.of(spans, headers))).run();
    spans.close(Duration.ofSeconds(5));
    return result;
  }

  private SpanData only(String name) {
    List<SpanData> found = named(name);
    assertThat(found).as("spans named " + name).hasSize(1);
    return found.get(0);
  }

  private List<SpanData> named(String name) {
    return exporter.getFinishedSpanItems().stream().filter(s -> s.getName().equals(name)).toList();
  }

  private <T extends Milestone> T only(Class<T> type) {
    List<T> found = drill.milestones(type);
    assertThat(found).hasSize(1);
    return found.get(0);
  }

  private static Instant start(SpanData span) {
    return Instant.ofEpochSecond(0, span.getStartEpochNanos());
  }

  private static Instant end(SpanData span) {
    return Instant.ofEpochSecond(0, span.getEndEpochNanos());
  }

  private static long nanos(Instant at) {
    return TimeUnit.SECONDS.toNanos(at.getEpochSecond()) + at.getNano();
  }
}
