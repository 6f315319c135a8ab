package dev.firedrill.lab.service;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import dev.firedrill.http.Propagation;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import java.net.URI;
import java.net.http.HttpRequest;

/**
 * A demo service's spans: a SERVER span per request, child of the incoming {@code traceparent},
 * with {@code chaos.experiment.id} from the incoming {@code baggage}; a CLIENT span per outgoing
 * call, whose context (with the baggage unchanged) goes on in the call's headers.
 */
final class ServiceTracing implements AutoCloseable {

  private static final AttributeKey<String> EXPERIMENT =
      AttributeKey.stringKey(Propagation.EXPERIMENT_ID);
  private static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
  private static final AttributeKey<String> ROUTE = AttributeKey.stringKey("http.route");
  private static final AttributeKey<String> URL = AttributeKey.stringKey("url.full");
  private static final AttributeKey<Long> STATUS =
      AttributeKey.longKey("http.response.status_code");
  private static final TextMapGetter<Headers> HEADERS =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Headers carrier) {
          return carrier.keySet();
        }

        @Override
        public String get(Headers carrier, String key) {
          return carrier == null ? null : carrier.getFirst(key);
        }
      };

  /**
   * Without any processor the SDK hands out no-op tracers, whose "spans" pass the caller's span id
   * on as their own; this one keeps real spans and drops them when they end.
   */
  private static final SpanProcessor DISCARD =
      new SpanProcessor() {
        @Override
        public void onStart(Context parentContext, ReadWriteSpan span) {}

        @Override
        public boolean isStartRequired() {
          return false;
        }

        @Override
        public void onEnd(ReadableSpan span) {}

        @Override
        public boolean isEndRequired() {
          return false;
        }
      };

  private final Tracer tracer;

  /** The provider this service made for itself and must close; null when the caller owns it. */
  private final SdkTracerProvider own;

  private ServiceTracing(TracerProvider provider, String service, SdkTracerProvider own) {
    this.tracer = provider.get("dev.firedrill.lab." + service);
    this.own = own;
  }

  /** Spans to the caller's provider, which the caller closes. */
  static ServiceTracing to(TracerProvider provider, String service) {
    return new ServiceTracing(provider, service, null);
  }

  /**
   * Spans to a provider of the service's own that exports nowhere: the spans still exist, so a
   * trace is started and passed on, but nothing is printed or sent (the lab's default).
   */
  static ServiceTracing unexported(String service) {
    SdkTracerProvider provider = SdkTracerProvider.builder().addSpanProcessor(DISCARD).build();
    return new ServiceTracing(provider, service, provider);
  }

  @Override
  public void close() {
    if (own != null) {
      own.close();
    }
  }

  /**
   * The incoming context with a new SERVER span; {@code route} is null for a path the service does
   * not serve.
   */
  Context server(HttpExchange exchange, String route) {
    Context incoming = Propagation.extract(exchange.getRequestHeaders(), HEADERS);
    String method = exchange.getRequestMethod();
    SpanBuilder span =
        tracer
            .spanBuilder(route == null ? method : method + " " + route)
            .setParent(incoming)
            .setSpanKind(SpanKind.SERVER)
            .setAttribute(METHOD, method);
    if (route != null) {
      span.setAttribute(ROUTE, route);
    }
    return incoming.with(experiment(span, incoming).startSpan());
  }

  /** A CLIENT span under {@code parent} for a call to {@code url}. */
  Context client(Context parent, String method, URI url) {
    SpanBuilder span =
        tracer
            .spanBuilder(method)
            .setParent(parent)
            .setSpanKind(SpanKind.CLIENT)
            .setAttribute(METHOD, method)
            .setAttribute(URL, url.toString());
    return parent.with(experiment(span, parent).startSpan());
  }

  /** {@code traceparent} of the context's span and its {@code baggage}. */
  static HttpRequest.Builder inject(Context context, HttpRequest.Builder request) {
    Propagation.inject(context, request::header);
    return request;
  }

  /** Ends the context's span with the HTTP status it answered or received (0: none). */
  static void end(Context context, int status) {
    Span span = Span.fromContext(context);
    if (status > 0) {
      span.setAttribute(STATUS, (long) status);
    }
    if (status == 0 || status >= 500) {
      span.setStatus(StatusCode.ERROR);
    }
    span.end();
  }

  private static SpanBuilder experiment(SpanBuilder span, Context context) {
    return Propagation.experimentId(context)
        .map(id -> span.setAttribute(EXPERIMENT, id))
        .orElse(span);
  }
}
