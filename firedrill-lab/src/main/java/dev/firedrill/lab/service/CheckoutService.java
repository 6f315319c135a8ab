package dev.firedrill.lab.service;

import com.sun.net.httpserver.HttpExchange;
import dev.firedrill.net.HostPort;
import dev.firedrill.net.LoopbackHttpServer;
import dev.firedrill.net.Route;
import dev.firedrill.time.Clock;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.Context;
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
 *   <li>payments answered 2xx: {@code 200 {"order":"completed"}}, {@code orders_completed_total} +
 *       1;
 *   <li>payments timed out on the last attempt: {@code 200 {"order":"pending"}}, a business failure
 *       that HTTP status codes do not show (only {@code orders_total{result="pending"}} does);
 *   <li>payments answered 5xx, refused or reset on the last attempt, or answered another status:
 *       {@code 502 {"order":"failed"}}.
 * </ul>
 *
 * <p>Each request is a SERVER span, child of the incoming {@code traceparent} (a new trace when
 * none came in), with {@code chaos.experiment.id} from the incoming {@code baggage}; each call to
 * payments is a CLIENT span under it and carries its {@code traceparent} and the baggage unchanged.
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
  private final ServiceTracing tracing;

  private CheckoutService(CheckoutSettings settings, Clock clock, ServiceTracing tracing)
      throws IOException {
    this.clock = clock;
    this.tracing = tracing;
    this.payUrl = settings.payUrl();
    this.timeout = settings.timeout();
    this.metrics = new HttpServerMetrics(registry, NAME, ROUTE, List.of(200, 500, 502));
    this.completed =
        Counter.builder()
            .name("orders_completed")
            .help("Orders whose payment was accepted.")
            .register(registry);
    this.orders =
        Counter.builder()
            .name("orders")
            .help("Orders by result: completed, pending (payments timed out) or failed.")
            .labelNames("result")
            .register(registry);
    for (String result : List.of("completed", "pending", "failed")) {
      orders.initLabelValues(result);
    }
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(timeout)
            .build();
    this.host =
        ServiceHost.start(
            NAME,
            settings.listen(),
            settings.metrics(),
            registry,
            settings.threads(),
            this::routes);
  }

  public static CheckoutService start(CheckoutSettings settings) {
    return start(settings, Clock.system());
  }

  /** Starts serving; {@code clock} times the requests for the histogram. */
  public static CheckoutService start(CheckoutSettings settings, Clock clock) {
    return start(settings, clock, ServiceTracing.unexported(NAME));
  }

  /** Starts serving; spans go to {@code tracing}, which the caller owns and closes. */
  public static CheckoutService start(
      CheckoutSettings settings, Clock clock, TracerProvider tracing) {
    return start(settings, clock, ServiceTracing.to(tracing, NAME));
  }

  private static CheckoutService start(
      CheckoutSettings settings, Clock clock, ServiceTracing tracing) {
    try {
      return new CheckoutService(settings, clock, tracing);
    } catch (IOException e) {
      tracing.close();
      throw new UncheckedIOException(
          "checkout cannot listen on " + HostPort.format(settings.listen()) + ": " + e.getMessage(),
          e);
    } catch (RuntimeException e) {
      tracing.close();
      throw e;
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
    tracing.close();
  }

  private void routes(LoopbackHttpServer.Builder server) {
    server
        .route(Route.exact(ROUTE).post(exchange -> serve(exchange, ROUTE, this::checkout)))
        .notFound(
            exchange ->
                serve(
                    exchange,
                    null,
                    (ignored, context) -> new Reply(404, "{\"error\":\"not found\"}")))
        .refusal(
            (exchange, allowed) ->
                serve(
                    exchange,
                    ROUTE,
                    (ignored, context) -> new Reply(405, "{\"error\":\"POST only\"}")));
  }

  /** What a request on {@code route} (null: none) is answered; it is counted and traced. */
  @FunctionalInterface
  private interface Replier {
    Reply reply(HttpExchange exchange, Context context) throws IOException;
  }

  private void serve(HttpExchange exchange, String route, Replier replier) {
    long started = clock.nanoTime();
    Context context = tracing.server(exchange, route);
    Reply reply;
    try {
      reply = replier.reply(exchange, context);
    } catch (IOException e) {
      ServiceTracing.end(context, 0);
      exchange.close();
      return;
    }
    // counted and traced before the answer is written, so a client that has its answer also sees
    // both
    metrics.record(
        route != null ? route : HttpServerMetrics.OTHER_ROUTE,
        reply.code(),
        clock.nanoTime() - started);
    ServiceTracing.end(context, reply.code());
    Exchanges.json(exchange, reply.code(), reply.json());
  }

  private Reply checkout(HttpExchange exchange, Context context) throws IOException {
    Exchanges.drain(exchange);
    try {
      return checkout(context);
    } catch (RuntimeException e) {
      return new Reply(500, "{\"error\":" + Exchanges.quote(String.valueOf(e.getMessage())) + "}");
    }
  }

  private record Reply(int code, String json) {}

  private Reply checkout(Context context) {
    PaymentsCall call = pay(context);
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
    return new Reply(
        502,
        "{\"order\":\"failed\",\"payments\":\"" + call.name().toLowerCase(Locale.ROOT) + "\"}");
  }

  /** One call and, when it failed in a way worth retrying, one retry. */
  private PaymentsCall pay(Context context) {
    PaymentsCall result = attempt(context);
    if (result.retryable() && !Thread.currentThread().isInterrupted()) {
      result = attempt(context);
    }
    return result;
  }

  private PaymentsCall attempt(Context server) {
    Context call = tracing.client(server, "POST", payUrl);
    int status = 0;
    try {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(payUrl)
              .timeout(timeout)
              .POST(HttpRequest.BodyPublishers.ofString("{}"));
      status =
          client
              .send(
                  ServiceTracing.inject(call, request).build(),
                  HttpResponse.BodyHandlers.discarding())
              .statusCode();
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
    } finally {
      ServiceTracing.end(call, status);
    }
  }
}
