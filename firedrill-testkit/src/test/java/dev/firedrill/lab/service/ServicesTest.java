package dev.firedrill.lab.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.testing.Scrape;
import dev.firedrill.testing.TraceHeaders;
import io.opentelemetry.api.trace.SpanContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Checkout and payments over real HTTP on 127.0.0.1, their metrics read from their own /metrics.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServicesTest {

  private static final String CHECKOUT_200 =
      "http_server_requests_total{code=\"200\",route=\"/checkout\",service=\"checkout\"}";
  private static final String CHECKOUT_502 =
      "http_server_requests_total{code=\"502\",route=\"/checkout\",service=\"checkout\"}";
  private static final String PAY_200 =
      "http_server_requests_total{code=\"200\",route=\"/pay\",service=\"payments\"}";
  private static final String PAY_500 =
      "http_server_requests_total{code=\"500\",route=\"/pay\",service=\"payments\"}";
  private static final String COMPLETED = "orders_completed_total";
  private static final String PENDING = "orders_total{result=\"pending\"}";
  private static final String FAILED = "orders_total{result=\"failed\"}";

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private PaymentsService payments;
  private CheckoutService checkout;

  @BeforeEach
  void start() {
    payments = PaymentsService.start(PaymentsSettings.defaults());
    checkout = CheckoutService.start(CheckoutSettings.defaults(payments.url()));
  }

  @AfterEach
  void stop() {
    checkout.close();
    payments.close();
  }

  @Test
  void everySeriesIsThereFromTheStart() {
    Scrape checkoutMetrics = Scrape.of(checkout.metricsUrl());
    assertThat(checkoutMetrics.text())
        .contains("# TYPE http_server_requests_total counter\n")
        .contains("# TYPE http_server_request_duration_seconds histogram\n")
        .contains("# TYPE orders_completed_total counter\n")
        .contains("# TYPE orders_total counter\n");
    assertThat(checkoutMetrics.get(CHECKOUT_200)).isZero();
    assertThat(checkoutMetrics.get(CHECKOUT_502)).isZero();
    assertThat(
            checkoutMetrics.get(
                "http_server_requests_total{code=\"500\",route=\"/checkout\",service=\"checkout\"}"))
        .isZero();
    assertThat(checkoutMetrics.get(COMPLETED)).isZero();
    assertThat(checkoutMetrics.get("orders_total{result=\"completed\"}")).isZero();
    assertThat(checkoutMetrics.get(PENDING)).isZero();
    assertThat(checkoutMetrics.get(FAILED)).isZero();
    assertThat(
            checkoutMetrics.get(
                "http_server_request_duration_seconds_count{route=\"/checkout\",service=\"checkout\"}"))
        .isZero();
    Scrape paymentsMetrics = Scrape.of(payments.metricsUrl());
    assertThat(paymentsMetrics.get(PAY_200)).isZero();
    assertThat(paymentsMetrics.get(PAY_500)).isZero();
    assertThat(paymentsMetrics.text()).doesNotContain("orders_");
  }

  @Test
  void aCheckoutPaysAndCompletes() throws Exception {
    HttpResponse<String> response = post(checkout.url().resolve("/checkout"), null, null);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("{\"order\":\"completed\"}");
    assertThat(payments.calls()).isEqualTo(1);
    Scrape checkoutMetrics = Scrape.of(checkout.metricsUrl());
    assertThat(checkoutMetrics.get(CHECKOUT_200)).isEqualTo(1);
    assertThat(checkoutMetrics.get(CHECKOUT_502)).isZero();
    assertThat(checkoutMetrics.get(COMPLETED)).isEqualTo(1);
    assertThat(checkoutMetrics.get("orders_total{result=\"completed\"}")).isEqualTo(1);
    assertThat(
            checkoutMetrics.get(
                "http_server_request_duration_seconds_count{route=\"/checkout\",service=\"checkout\"}"))
        .isEqualTo(1);
    assertThat(
            checkoutMetrics.get(
                "http_server_request_duration_seconds_bucket{route=\"/checkout\",service=\"checkout\",le=\"+Inf\"}"))
        .isEqualTo(1);
    assertThat(
            checkoutMetrics.get(
                "http_server_request_duration_seconds_bucket{route=\"/checkout\",service=\"checkout\",le=\"10.0\"}"))
        .isEqualTo(1);
    assertThat(
            checkoutMetrics.value(
                "http_server_request_duration_seconds_bucket{route=\"/checkout\",service=\"checkout\",le=\"0.005\"}"))
        .isPresent();
    Scrape paymentsMetrics = Scrape.of(payments.metricsUrl());
    assertThat(paymentsMetrics.get(PAY_200)).isEqualTo(1);
    assertThat(paymentsMetrics.get(PAY_500)).isZero();
    // payments waits its 10 ms latency before answering, and the histogram sees it
    assertThat(
            paymentsMetrics.get(
                "http_server_request_duration_seconds_bucket{route=\"/pay\",service=\"payments\",le=\"0.005\"}"))
        .isZero();
    assertThat(
            paymentsMetrics.get(
                "http_server_request_duration_seconds_count{route=\"/pay\",service=\"payments\"}"))
        .isEqualTo(1);
    assertThat(
            paymentsMetrics.get(
                "http_server_request_duration_seconds_sum{route=\"/pay\",service=\"payments\"}"))
        .isGreaterThanOrEqualTo(0.01);
  }

  @Test
  void slowPaymentsLeaveTheOrderPendingBehindA200AfterOneRetry() throws Exception {
    payments.setLatency(Duration.ofMillis(1_000)); // above checkout's 300 ms timeout

    HttpResponse<String> response = post(checkout.url().resolve("/checkout"), null, null);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("{\"order\":\"pending\"}");
    assertThat(payments.calls()).isEqualTo(2);
    Scrape checkoutMetrics = Scrape.of(checkout.metricsUrl());
    assertThat(checkoutMetrics.get(CHECKOUT_200)).isEqualTo(1);
    assertThat(checkoutMetrics.get(COMPLETED)).isZero();
    assertThat(checkoutMetrics.get(PENDING)).isEqualTo(1);
    assertThat(checkoutMetrics.get(FAILED)).isZero();
    // two timeouts of 300 ms each
    assertThat(
            checkoutMetrics.get(
                "http_server_request_duration_seconds_bucket{route=\"/checkout\",service=\"checkout\",le=\"0.5\"}"))
        .isZero();
    assertThat(
            checkoutMetrics.get(
                "http_server_request_duration_seconds_bucket{route=\"/checkout\",service=\"checkout\",le=\"1.0\"}"))
        .isEqualTo(1);
  }

  @Test
  void failingPaymentsGive502AfterOneRetry() throws Exception {
    payments.setErrorRatio(1);

    HttpResponse<String> response = post(checkout.url().resolve("/checkout"), null, null);

    assertThat(response.statusCode()).isEqualTo(502);
    assertThat(response.body()).isEqualTo("{\"order\":\"failed\",\"payments\":\"server_error\"}");
    assertThat(payments.calls()).isEqualTo(2);
    Scrape checkoutMetrics = Scrape.of(checkout.metricsUrl());
    assertThat(checkoutMetrics.get(CHECKOUT_502)).isEqualTo(1);
    assertThat(checkoutMetrics.get(CHECKOUT_200)).isZero();
    assertThat(checkoutMetrics.get(COMPLETED)).isZero();
    assertThat(checkoutMetrics.get(FAILED)).isEqualTo(1);
    assertThat(Scrape.of(payments.metricsUrl()).get(PAY_500)).isEqualTo(2);
  }

  @Test
  void refusedPaymentsGive502() throws Exception {
    payments.close();

    HttpResponse<String> response = post(checkout.url().resolve("/checkout"), null, null);

    assertThat(response.statusCode()).isEqualTo(502);
    assertThat(response.body()).isEqualTo("{\"order\":\"failed\",\"payments\":\"unreachable\"}");
    assertThat(Scrape.of(checkout.metricsUrl()).get(FAILED)).isEqualTo(1);
  }

  @Test
  void baggageAndTraceIdReachPaymentsThroughCheckout() throws Exception {
    String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    String incoming = "00-" + traceId + "-00f067aa0ba902b7-01";
    String baggage = "chaos.experiment.id=drill-42,team=sre";

    post(checkout.url().resolve("/checkout"), incoming, baggage);

    SeenRequest seen = payments.lastRequest().orElseThrow();
    assertThat(seen.baggage()).hasValue(baggage);
    SpanContext sent = TraceHeaders.parse(seen.traceparent().orElseThrow()).orElseThrow();
    assertThat(sent.getTraceId()).isEqualTo(traceId);
    assertThat(sent.getSpanId()).isNotEqualTo("00f067aa0ba902b7");
    assertThat(sent.getTraceFlags().asHex()).isEqualTo("01");

    HttpResponse<String> debug =
        http.send(
            HttpRequest.newBuilder(payments.url().resolve("/debug/last-request")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(debug.body())
        .isEqualTo(
            "{\"calls\":1,\"traceparent\":\""
                + seen.traceparent().get()
                + "\",\"baggage\":\""
                + baggage
                + "\"}");
  }

  @Test
  void withoutATraceparentCheckoutStartsATraceAndKeepsItAcrossTheRetry() throws Exception {
    payments.setErrorRatio(1);
    post(checkout.url().resolve("/checkout"), "not-a-traceparent", null);
    SeenRequest second = payments.lastRequest().orElseThrow();
    assertThat(second.baggage()).isEmpty();
    assertThat(TraceHeaders.parse(second.traceparent().orElseThrow())).isPresent();
  }

  @Test
  void otherMethodsAndPathsAreRefused() throws Exception {
    HttpResponse<String> get =
        http.send(
            HttpRequest.newBuilder(checkout.url().resolve("/checkout")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(get.statusCode()).isEqualTo(405);
    assertThat(post(checkout.url().resolve("/nope"), null, null).statusCode()).isEqualTo(404);
    assertThat(payments.calls()).isZero();
  }

  private HttpResponse<String> post(URI url, String traceparent, String baggage) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(url)
            .timeout(Duration.ofSeconds(5))
            .POST(HttpRequest.BodyPublishers.ofString("{}"));
    if (traceparent != null) {
      request.header("traceparent", traceparent);
    }
    if (baggage != null) {
      request.header("baggage", baggage);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
