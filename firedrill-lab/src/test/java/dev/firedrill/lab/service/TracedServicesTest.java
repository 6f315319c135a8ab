package dev.firedrill.lab.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.lab.load.LoadGenerator;
import dev.firedrill.lab.load.LoadMetrics;
import dev.firedrill.lab.load.LoadPlan;
import dev.firedrill.lab.load.LoadResult;
import dev.firedrill.lab.load.Outcome;
import dev.firedrill.time.Clock;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real HTTP on loopback: the load generator sends {@code baggage: chaos.experiment.id=<id>} to
 * checkout, checkout calls payments, and each service's spans (in-memory exporters) show the
 * experiment id and one trace per request across both services.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TracedServicesTest {

  private static final AttributeKey<String> EXPERIMENT =
      AttributeKey.stringKey("chaos.experiment.id");

  private final InMemorySpanExporter checkoutSpans = InMemorySpanExporter.create();
  private final InMemorySpanExporter paymentsSpans = InMemorySpanExporter.create();
  private final SdkTracerProvider checkoutTracing =
      SdkTracerProvider.builder()
          .addSpanProcessor(SimpleSpanProcessor.create(checkoutSpans))
          .build();
  private final SdkTracerProvider paymentsTracing =
      SdkTracerProvider.builder()
          .addSpanProcessor(SimpleSpanProcessor.create(paymentsSpans))
          .build();
  private final PaymentsService payments =
      PaymentsService.start(
          PaymentsSettings.defaults().withLatency(Duration.ZERO), Clock.system(), paymentsTracing);
  private final CheckoutService checkout =
      CheckoutService.start(
          CheckoutSettings.defaults(payments.url()).withTimeout(Duration.ofSeconds(10)),
          Clock.system(),
          checkoutTracing); // a timeout no busy machine reaches: one call to payments per checkout

  @AfterEach
  void stop() {
    checkout.close();
    payments.close();
    checkoutTracing.close();
    paymentsTracing.close();
  }

  @Test
  void theExperimentIdTravelsFromTheLoadGeneratorThroughCheckoutToPaymentsSpans() {
    LoadPlan plan =
        LoadPlan.of(checkout.url().resolve(CheckoutService.ROUTE), 10, Duration.ofSeconds(1))
            .withMethod("POST")
            .withExperimentId("drill-7");

    LoadResult result = LoadGenerator.http(plan, new LoadMetrics()).run();

    List<SpanData> paid = paymentsSpans.getFinishedSpanItems();
    assertThat(result.count(Outcome.OK)).isEqualTo(10);
    assertThat(paid)
        .hasSize(10)
        .allSatisfy(
            span -> {
              assertThat(span.getName()).isEqualTo("POST /pay");
              assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
              assertThat(span.getAttributes().get(EXPERIMENT)).isEqualTo("drill-7");
            });
    Map<String, SpanData> checkoutById =
        checkoutSpans.getFinishedSpanItems().stream()
            .collect(Collectors.toMap(SpanData::getSpanId, Function.identity()));
    for (SpanData pay : paid) {
      SpanData call = checkoutById.get(pay.getParentSpanId());
      assertThat(call).as("payments' parent is a checkout span").isNotNull();
      assertThat(call.getKind()).isEqualTo(SpanKind.CLIENT);
      assertThat(call.getTraceId()).isEqualTo(pay.getTraceId());
      assertThat(call.getAttributes().get(EXPERIMENT)).isEqualTo("drill-7");
      SpanData served = checkoutById.get(call.getParentSpanId());
      assertThat(served.getKind()).isEqualTo(SpanKind.SERVER);
      assertThat(served.getName()).isEqualTo("POST /checkout");
      assertThat(served.getTraceId()).isEqualTo(pay.getTraceId());
      assertThat(served.getAttributes().get(EXPERIMENT)).isEqualTo("drill-7");
      assertThat(served.getParentSpanContext().isRemote())
          .as("checkout continues the load generator's trace")
          .isTrue();
    }
    assertThat(paid.stream().map(SpanData::getTraceId).distinct())
        .as("a trace per request")
        .hasSize(10);
  }

  @Test
  void withoutBaggageTheSpansCarryNoExperimentId() {
    LoadPlan plan =
        LoadPlan.of(checkout.url().resolve(CheckoutService.ROUTE), 5, Duration.ofSeconds(1))
            .withMethod("POST");

    LoadGenerator.http(plan, new LoadMetrics()).run();

    assertThat(paymentsSpans.getFinishedSpanItems())
        .hasSize(5)
        .allSatisfy(span -> assertThat(span.getAttributes().get(EXPERIMENT)).isNull());
    assertThat(checkoutSpans.getFinishedSpanItems())
        .hasSize(10)
        .allSatisfy(span -> assertThat(span.getAttributes().get(EXPERIMENT)).isNull());
  }
}
