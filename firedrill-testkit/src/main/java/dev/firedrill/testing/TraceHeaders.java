package dev.firedrill.testing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.List;
import java.util.Optional;

/**
 * Reads a {@code traceparent} as OpenTelemetry's W3C propagator does: what a receiver would see.
 */
public final class TraceHeaders {

  private static final TextMapGetter<String> ONE =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String carrier) {
          return List.of("traceparent");
        }

        @Override
        public String get(String carrier, String key) {
          return "traceparent".equals(key) ? carrier : null;
        }
      };

  private TraceHeaders() {}

  /** The remote span the header names, or empty when a receiver would start a new trace. */
  public static Optional<SpanContext> parse(String traceparent) {
    if (traceparent == null) {
      return Optional.empty();
    }
    SpanContext context =
        Span.fromContext(
                W3CTraceContextPropagator.getInstance().extract(Context.root(), traceparent, ONE))
            .getSpanContext();
    return context.isValid() ? Optional.of(context) : Optional.empty();
  }
}
