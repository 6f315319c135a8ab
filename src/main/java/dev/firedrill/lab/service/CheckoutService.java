package dev.firedrill.lab.service;

import com.sun.net.httpserver.HttpExchange;
import dev.firedrill.lab.net.HostPort;
import dev.firedrill.lab.trace.Baggage;
import dev.firedrill.lab.trace.TraceParent;
import dev.firedrill.time.Clock;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.List;
import java.util.Locale;

/**
 * The demo checkout service: {@code POST /checkout} calls payments' {@code POST /pay} and waits for
 * it, with a client timeout and one retry.
 *
 * <ul>
 *   <li>payments answered 2xx: {@code 200 {"order":"completed"}}, {@code orders_completed_total} + 1;
 *   <li>payments timed out on the last attempt: {@code 200 {"order":"pending"}}, a business failure
 *       that HTTP status codes do not show (only {@code orders_total{result="pending"}} does);
 *   <li>payments answered 5xx, refused or reset on the last attempt, or answered another status:
 *       {@code 502 {"order":"failed"}}.
 * </ul>
 *
 * <p>Every call carries the incoming {@code baggage} unchanged and a {@code traceparent} with the
 * incoming trace id (a new one when none came in) and a new parent span id per attempt.
 */
public final class CheckoutService implements AutoCloseable {

  public static final String NAME = "checkout";
  public static final String ROUTE = "/checkout";

  private final Clock clock;
  private final URI payUrl;
  private final java.time.Duration timeout;
  private final HttpClient client;
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final HttpServerMetrics metrics;
  private final Counter completed;
  private final Counter orders;
  private final ServiceHost host;

  private CheckoutService(CheckoutSettings settings, Clock clock) throws IOException {
    this.clock = clock;
    this.payUrl = settings.payUrl();
    this.timeout = settings.timeout();
    this.metrics = new HttpServerMetrics(registry, NAME, ROUTE, List.of(200, 500, 502));
    this.completed = Counter.builder().name("orders_completed")
        .help("Orders whose payment was accepted.").register(registry);
    this.orders = Counter.builder().name("orders")
        .help("Orders by result: completed, pending (payments timed out) or failed.")
        .labelNames("result").register(registry);
    for (String result : List.of("completed", "pending", "failed")) {
      orders.initLabelValues(result);
    }
    this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
    this.host = ServiceHost.start(NAME, settings.listen(), settings.metrics(), registry, settings.threads(), this::route);
  }

  public static CheckoutService start(CheckoutSettings settings) {
    return start(settings, Clock.system());
  }

  /** Starts serving; {@code clock} times the requests for the histogram. */
  public static CheckoutService start(CheckoutSettings settings, Clock clock) {
    try {
      return new CheckoutService(settings, clock);
    } catch (IOException e) {
      throw new UncheckedIOException("checkout cannot listen on " + HostPort.format(settings.listen()) + ": "
          + e.getMessage(), e);
    }
  }

  public InetSocketAddress address() {
    return host.address();
  }

  /** {@code http://HOST:PORT}. */
  public URI url() {
    return host.url();
  }

  public InetSocketAddress metricsAddress() {
    return host.metricsAddress();
  }

  public URI metricsUrl() {
    return host.metricsUrl();
  }

  @Override
  public void close() {
    host.close();
  }

  private void route(HttpExchange exchange) {
    long started = clock.nanoTime();
    if (!exchange.getRequestURI().getPath().equals(ROUTE)) {
      metrics.record(HttpServerMetrics.OTHER_ROUTE, 404, clock.nanoTime() - started);
      Exchanges.json(exchange, 404, "{\"error\":\"not found\"}");
      return;
    }
    if (!exchange.getRequestMethod().equals("POST")) {
      metrics.record(ROUTE, 405, clock.nanoTime() - started);
      Exchanges.json(exchange, 405, "{\"error\":\"POST only\"}");
      return;
    }
    Reply reply;
    try {
      Exchanges.drain(exchange);
      reply = checkout(exchange);
    } catch (IOException e) {
      exchange.close();
      return;
    } catch (RuntimeException e) {
      reply = new Reply(500, "{\"error\":" + Exchanges.quote(String.valueOf(e.getMessage())) + "}");
    }
    // counted before the answer is written, so a client that has its answer also sees it counted
    metrics.record(ROUTE, reply.code(), clock.nanoTime() - started);
    Exchanges.json(exchange, reply.code(), reply.json());
  }

  private record Reply(int code, String json) {}

  private Reply checkout(HttpExchange exchange) {
    TraceParent trace = TraceParent.parse(Exchanges.header(exchange, TraceParent.HEADER))
        .orElseGet(TraceParent::newRoot);
    String baggage = Exchanges.header(exchange, Baggage.HEADER);
    PaymentsCall call = pay(trace, baggage);
    if (call == PaymentsCall.OK) {
      completed.inc();
      orders.labelValues("completed").inc();
      return new Reply(200, "{\"order\":\"completed\"}");
    }
    if (call == PaymentsCall.TIMEOUT) {
      orders.labelValues("pending").inc();
      return new Reply(200, "{\"order\":\"pending\"}");
    }
    orders.labelValues("failed").inc();
    return new Reply(502, "{\"order\":\"failed\",\"payments\":\"" + call.name().toLowerCase(Locale.ROOT) + "\"}");
  }

  /** One call and, when it failed in a way worth retrying, one retry. */
  private PaymentsCall pay(TraceParent trace, String baggage) {
    PaymentsCall result = attempt(trace, baggage);
    if (result.retryable() && !Thread.currentThread().isInterrupted()) {
      result = attempt(trace, baggage);
    }
    return result;
  }

  private PaymentsCall attempt(TraceParent trace, String baggage) {
    HttpRequest.Builder request = HttpRequest.newBuilder(payUrl)
        .timeout(timeout)
        .header(TraceParent.HEADER, trace.child().header())
        .POST(HttpRequest.BodyPublishers.ofString("{}"));
    if (baggage != null) {
      request.header(Baggage.HEADER, baggage);
    }
    try {
      int status = client.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
      if (status >= 200 && status < 300) {
        return PaymentsCall.OK;
      }
      return status >= 500 ? PaymentsCall.SERVER_ERROR : PaymentsCall.REJECTED;
    } catch (HttpTimeoutException e) {
      return PaymentsCall.TIMEOUT;
    } catch (IOException e) {
      return PaymentsCall.UNREACHABLE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return PaymentsCall.UNREACHABLE;
    }
  }
}
