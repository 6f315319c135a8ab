package dev.firedrill.marker.trace;

import dev.firedrill.engine.JournalPaths;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporterBuilder;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Where the drill's spans go, decided by the environment: OTLP http/protobuf when an {@code
 * OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT} is set, otherwise JSON lines beside the journal; nothing
 * when {@code OTEL_SDK_DISABLED=true} (the requests still carry the baggage).
 */
public final class TraceExport {

  private static final String SERVICE_NAME = "OTEL_SERVICE_NAME";
  private static final String SDK_DISABLED = "OTEL_SDK_DISABLED";
  private static final String DEFAULT_SERVICE = "firedrill";

  /** Each OTLP request's limit: a collector that hangs never holds a batch for long. */
  private static final Duration OTLP_TIMEOUT = Duration.ofSeconds(5);

  private static final AttributeKey<String> SERVICE = AttributeKey.stringKey("service.name");

  /** Held here: JUL keeps loggers weakly, and a collected logger would lose its filter. */
  private static final Logger EXPORTER_LOG =
      Logger.getLogger("io.opentelemetry.exporter.otlp.internal.HttpExporter");

  /** The tracer provider and, for the console, where its spans go (never a header). */
  public record Opened(SdkTracerProvider provider, String description) {}

  private TraceExport() {}

  /**
   * Opens the export; {@link IllegalArgumentException} or {@link java.io.UncheckedIOException} with
   * one line when a variable is unusable or the spans file cannot be written.
   */
  public static Opened open(Map<String, String> environment, Path journal) {
    if ("true".equalsIgnoreCase(environment.getOrDefault(SDK_DISABLED, "").trim())) {
      return new Opened(
          SdkTracerProvider.builder().setSampler(Sampler.alwaysOff()).build(),
          "not exported (" + SDK_DISABLED + "=true)");
    }
    Optional<OtlpSettings> otlp = OtlpSettings.from(environment);
    SpanExporter exporter;
    String description;
    if (otlp.isPresent()) {
      OtlpHttpSpanExporterBuilder builder =
          OtlpHttpSpanExporter.builder()
              .setEndpoint(otlp.get().endpoint().toString())
              .setTimeout(OTLP_TIMEOUT);
      otlp.get().headers().forEach(builder::addHeader);
      redactInExporterLogs(otlp.get().headers().values());
      exporter = builder.build();
      description = "OTLP " + otlp.get().display();
    } else {
      JsonLinesSpanExporter lines = JsonLinesSpanExporter.open(spansPath(journal));
      exporter = lines;
      description = lines.path().toString();
    }
    String service =
        Optional.ofNullable(environment.get(SERVICE_NAME))
            .map(String::trim)
            .filter(s -> !s.isEmpty())
            .orElse(DEFAULT_SERVICE);
    SdkTracerProvider provider =
        SdkTracerProvider.builder()
            .setResource(
                Resource.getDefault().merge(Resource.create(Attributes.of(SERVICE, service))))
            .addSpanProcessor(BatchSpanProcessor.builder(exporter).build())
            .build();
    return new Opened(provider, description);
  }

  /**
   * The SDK logs a failed export with the collector's response body, and a collector (or a proxy in
   * front of it) may echo the credentials it refused: header values never reach the log.
   */
  private static void redactInExporterLogs(Collection<String> secrets) {
    List<String> values = secrets.stream().filter(v -> !v.isBlank()).toList();
    EXPORTER_LOG.setFilter(
        record -> {
          String message = record.getMessage();
          if (message != null) {
            for (String secret : values) {
              message = message.replace(secret, "<redacted>");
            }
            record.setMessage(message);
          }
          record.setThrown(null); // an exception's message may quote the response too
          return true;
        });
  }

  /** {@code drill-x.json} → {@code drill-x.spans.jsonl}, in the same directory. */
  public static Path spansPath(Path journal) {
    return JournalPaths.beside(journal, ".spans.jsonl");
  }
}
