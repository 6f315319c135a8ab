package dev.firedrill.http;

import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.api.baggage.propagation.W3CBaggagePropagator;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import java.net.http.HttpRequest;
import java.util.function.BiConsumer;

/**
 * Puts W3C {@code traceparent} and {@code baggage} (with {@code chaos.experiment.id}) on outgoing
 * requests, from an OpenTelemetry context. The drill's trace sink makes the drill's context
 * current on the drill thread; work handed to other threads captures {@link Context#current()}
 * first and passes it here.
 */
public final class Propagation {

  private static final TextMapPropagator W3C = TextMapPropagator.composite(
      W3CTraceContextPropagator.getInstance(), W3CBaggagePropagator.getInstance());

  private Propagation() {}

  public static void inject(Context context, BiConsumer<String, String> header) {
    W3C.inject(context, header, (sink, name, value) -> sink.accept(name, value));
  }

  /** Adds the current context's headers; adds nothing outside a drill. */
  public static HttpRequest.Builder injectCurrent(HttpRequest.Builder request) {
    inject(Context.current(), request::header);
    return request;
  }
}
