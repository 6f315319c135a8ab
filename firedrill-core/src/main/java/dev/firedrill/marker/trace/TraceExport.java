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
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
   * front of it) may echo the credentials it refused, whole or only the part after the scheme: no
   * header value, nor its credentials, reaches the log.
   */
  private static void redactInExporterLogs(Collection<String> values) {
    List<String> secrets = secrets(values);
    EXPORTER_LOG.setFilter(
        record -> {
          record.setMessage(redact(record.getMessage(), secrets));
          Object[] parameters = record.getParameters();
          if (parameters != null) {
            Object[] redacted = new Object[parameters.length];
            for (int i = 0; i < parameters.length; i++) {
              redacted[i] = redact(String.valueOf(parameters[i]), secrets);
            }
            record.setParameters(redacted);
          }
          record.setThrown(null); // an exception's message may quote the response too
          return true;
        });
  }

  /**
   * Each header value, its credentials without the scheme ({@code Bearer TOKEN}: {@code TOKEN}),
   * and for {@code Basic} the decoded {@code user:password} and the password; longest first, so a
   * value is replaced whole before a part of it is.
   */
  static List<String> secrets(Collection<String> values) {
    Set<String> secrets = new LinkedHashSet<>();
    for (String value : values) {
      String text = value.strip();
      if (text.isEmpty()) {
        continue;
      }
      secrets.add(text);
      String[] words = text.split("\\s+", 2);
      if (words.length == 2) {
        String credentials = words[1].strip();
        secrets.add(credentials);
        if (words[0].equalsIgnoreCase("Basic")) {
          try {
            String decoded =
                new String(Base64.getDecoder().decode(credentials), StandardCharsets.UTF_8);
            secrets.add(decoded);
            int colon = decoded.indexOf(':');
            if (colon >= 0 && colon + 1 < decoded.length()) {
              secrets.add(decoded.substring(colon + 1));
            }
          } catch (IllegalArgumentException notBase64) {
            // not what Basic expects, so nothing more to hide than the credentials as given
          }
        }
      }
    }
    return secrets.stream()
        .filter(secret -> !secret.isEmpty())
        .sorted(Comparator.comparingInt(String::length).reversed())
        .toList();
  }

  static String redact(String text, List<String> secrets) {
    if (text == null) {
      return null;
    }
    String result = text;
    for (String secret : secrets) {
      result = result.replace(secret, "<redacted>");
    }
    return result;
  }

  /** {@code drill-x.json} → {@code drill-x.spans.jsonl}, in the same directory. */
  public static Path spansPath(Path journal) {
    return JournalPaths.beside(journal, ".spans.jsonl");
  }
}
