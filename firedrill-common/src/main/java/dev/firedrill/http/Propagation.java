package dev.firedrill.http;

import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.baggage.propagation.W3CBaggagePropagator;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.net.http.HttpRequest;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * W3C trace context for every span firedrill has: {@code traceparent} and {@code baggage} (with
 * {@code chaos.experiment.id}) put on outgoing requests from an OpenTelemetry context, and read
 * from incoming ones (the lab's services). The drill's trace sink makes the drill's context current
 * on the drill thread; work handed to other threads captures {@link Context#current()} first and
 * passes it here. (The load generator, which starts a trace per request without spans, writes its
 * {@code traceparent} itself: lab.trace.TraceParent.)
 */
public final class Propagation {

  /**
   * No OpenTelemetry convention exists for chaos experiments; this is firedrill's baggage and
   * attribute key.
   */
  public static final String EXPERIMENT_ID = "chaos.experiment.id";

  private static final TextMapPropagator W3C =
      TextMapPropagator.composite(
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

  /**
   * The remote span and baggage that an incoming request's headers carry; the root context when
   * none.
   */
  public static <C> Context extract(C headers, TextMapGetter<C> getter) {
    return W3C.extract(Context.root(), headers, getter);
  }

  /** The {@code chaos.experiment.id} in the context's baggage. */
  public static Optional<String> experimentId(Context context) {
    return Optional.ofNullable(Baggage.fromContext(context).getEntryValue(EXPERIMENT_ID));
  }
}
