package dev.firedrill.lab.service;

import com.sun.net.httpserver.HttpExchange;
import dev.firedrill.lab.trace.Baggage;
import dev.firedrill.lab.trace.TraceParent;
import dev.firedrill.net.HostPort;
import dev.firedrill.net.LoopbackHttpServer;
import dev.firedrill.net.Route;
import dev.firedrill.time.Clock;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.Context;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The demo payments service: {@code POST /pay} answers {@code 200 {"payment":"accepted"}} after the
 * configured latency, or 500 for the configured share of requests. The latency holds no thread: the
 * answer is scheduled, so a slow payments serves any concurrency. It remembers the trace headers of
 * the last {@code /pay} ({@link #lastRequest()}, and {@code GET /debug/last-request} when it
 * listens on loopback). Each {@code /pay} is a SERVER span, child of the incoming {@code
 * traceparent}, with {@code chaos.experiment.id} from the incoming {@code baggage}; it ends when
 * the answer is written.
 */
public final class PaymentsService implements AutoCloseable {

  public static final String NAME = "payments";
  public static final String ROUTE = "/pay";
  private static final int HANDLER_THREADS = 8;

  private final Clock clock;
  private final ServiceHost host;
  private final ScheduledThreadPoolExecutor answers;
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final HttpServerMetrics metrics;
  private final AtomicReference<SeenRequest> last = new AtomicReference<>();
  private final AtomicLong calls = new AtomicLong();
  private volatile Duration latency;
  private volatile double errorRatio;
  private final ServiceTracing tracing;

  private PaymentsService(PaymentsSettings settings, Clock clock, ServiceTracing tracing)
      throws IOException {
    this.clock = clock;
    this.tracing = tracing;
    this.latency = settings.latency();
    this.errorRatio = settings.errorRatio();
    this.metrics = new HttpServerMetrics(registry, NAME, ROUTE, List.of(200, 500));
    this.answers = new ScheduledThreadPoolExecutor(2, Threads.named("payments-answer"));
    answers.setRemoveOnCancelPolicy(true);
    try {
      this.host =
          ServiceHost.start(
              NAME,
              settings.listen(),
              settings.metrics(),
              registry,
              HANDLER_THREADS,
              server -> routes(server, settings.listen()));
    } catch (IOException | RuntimeException e) {
      Threads.stop(answers);
      throw e;
    }
  }

  public static PaymentsService start(PaymentsSettings settings) {
    return start(settings, Clock.system());
  }

  /** Starts serving; {@code clock} times the requests for the histogram. */
  public static PaymentsService start(PaymentsSettings settings, Clock clock) {
    return start(settings, clock, ServiceTracing.unexported(NAME));
  }

  /** Starts serving; spans go to {@code tracing}, which the caller owns and closes. */
  public static PaymentsService start(
      PaymentsSettings settings, Clock clock, TracerProvider tracing) {
    return start(settings, clock, ServiceTracing.to(tracing, NAME));
  }

  private static PaymentsService start(
      PaymentsSettings settings, Clock clock, ServiceTracing tracing) {
    try {
      return new PaymentsService(settings, clock, tracing);
    } catch (IOException e) {
      tracing.close();
      throw new UncheckedIOException(
          "payments cannot listen on " + HostPort.format(settings.listen()) + ": " + e.getMessage(),
          e);
    } catch (RuntimeException e) {
      tracing.close();
      throw e;
    }
  }

  public InetSocketAddress address() {
    return host.address();
  }

  /** {@code http://HOST:PORT}, the base URL checkout calls. */
  public URI url() {
    return host.url();
  }

  public InetSocketAddress metricsAddress() {
    return host.metricsAddress();
  }

  public URI metricsUrl() {
    return host.metricsUrl();
  }

  public void setLatency(Duration latency) {
    this.latency = PaymentsSettings.checkLatency(latency);
  }

  public void setErrorRatio(double ratio) {
    this.errorRatio = PaymentsSettings.checkErrorRatio(ratio);
  }

  /** The trace headers of the last {@code POST /pay}, or empty before the first. */
  public Optional<SeenRequest> lastRequest() {
    return Optional.ofNullable(last.get());
  }

  /** How many {@code POST /pay} arrived. */
  public long calls() {
    return calls.get();
  }

  @Override
  public void close() {
    host.close();
    Threads.stop(answers);
    tracing.close();
  }

  /** {@code /debug/last-request} only on loopback: it shows the last caller's trace headers. */
  private void routes(LoopbackHttpServer.Builder server, InetSocketAddress listen) {
    server
        .route(Route.exact(ROUTE).post(this::pay))
        .notFound(
            exchange -> {
              long started = clock.nanoTime();
              metrics.record(HttpServerMetrics.OTHER_ROUTE, 404, clock.nanoTime() - started);
              Exchanges.json(exchange, 404, "{\"error\":\"not found\"}");
            })
        .refusal(
            (exchange, allowed) -> {
              long started = clock.nanoTime();
              Context span = tracing.server(exchange, ROUTE);
              metrics.record(ROUTE, 405, clock.nanoTime() - started);
              ServiceTracing.end(span, 405);
              Exchanges.json(exchange, 405, "{\"error\":\"POST only\"}");
            });
    if (listen.getAddress().isLoopbackAddress()) {
      server.route(Route.exact("/debug/last-request").get(this::debug));
    }
  }

  private void pay(HttpExchange exchange) {
    long started = clock.nanoTime();
    Context span = tracing.server(exchange, ROUTE);
    try {
      Exchanges.drain(exchange);
    } catch (IOException e) {
      exchange.close();
      ServiceTracing.end(span, 0);
      return;
    }
    calls.incrementAndGet();
    last.set(
        new SeenRequest(
            Optional.ofNullable(Exchanges.header(exchange, TraceParent.HEADER)),
            Optional.ofNullable(Exchanges.header(exchange, Baggage.HEADER))));
    double ratio = errorRatio;
    int code = ratio > 0 && ThreadLocalRandom.current().nextDouble() < ratio ? 500 : 200;
    Runnable answer =
        () -> {
          // counted and traced before the answer: a caller that has it sees both
          metrics.record(ROUTE, code, clock.nanoTime() - started);
          ServiceTracing.end(span, code);
          Exchanges.json(
              exchange,
              code,
              code == 200 ? "{\"payment\":\"accepted\"}" : "{\"payment\":\"error\"}");
        };
    long wait = latency.toNanos();
    if (wait == 0) {
      answer.run();
      return;
    }
    try {
      answers.schedule(answer, wait, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      exchange.close(); // closing down
      ServiceTracing.end(span, 0);
    }
  }

  private void debug(HttpExchange exchange) {
    SeenRequest seen = last.get();
    String traceparent = seen == null ? null : seen.traceparent().orElse(null);
    String baggage = seen == null ? null : seen.baggage().orElse(null);
    Exchanges.json(
        exchange,
        200,
        "{\"calls\":"
            + calls.get()
            + ",\"traceparent\":"
            + (traceparent == null ? "null" : Exchanges.quote(traceparent))
            + ",\"baggage\":"
            + (baggage == null ? "null" : Exchanges.quote(baggage))
            + "}");
  }
}
