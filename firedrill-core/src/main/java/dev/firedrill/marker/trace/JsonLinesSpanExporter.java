package dev.firedrill.marker.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanId;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Spans as JSON lines, one span per line, for runs without an OTLP endpoint: {@code trace_id},
 * {@code span_id}, {@code parent_span_id} (null for a root), {@code name}, {@code kind}, {@code
 * start}/{@code end} (RFC 3339, UTC), {@code attributes}, {@code events}, {@code status}.
 */
public final class JsonLinesSpanExporter implements SpanExporter {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path path;
  private final BufferedWriter out;
  private boolean closed;

  private JsonLinesSpanExporter(Path path, BufferedWriter out) {
    this.path = path;
    this.out = out;
  }

  /**
   * Creates or appends to {@code path}; fails here, before the drill, when it cannot be written.
   */
  public static JsonLinesSpanExporter open(Path path) {
    try {
      // The journal's directory (journals/ by default) may not exist before the first journal
      // write.
      Path parent = path.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      return new JsonLinesSpanExporter(
          path,
          Files.newBufferedWriter(
              path,
              StandardCharsets.UTF_8,
              StandardOpenOption.CREATE,
              StandardOpenOption.APPEND,
              StandardOpenOption.WRITE));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write spans to " + path + ": " + reason(e), e);
    }
  }

  /** The JDK's file exceptions carry only the path as their message. */
  private static String reason(IOException e) {
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof java.nio.file.FileSystemException fs) {
      return fs.getReason() != null ? fs.getReason() : e.getClass().getSimpleName();
    }
    return e.getMessage();
  }

  public Path path() {
    return path;
  }

  @Override
  public synchronized CompletableResultCode export(Collection<SpanData> spans) {
    if (closed) {
      return CompletableResultCode.ofFailure();
    }
    try {
      for (SpanData span : spans) {
        out.write(line(span));
        out.write('\n');
      }
      out.flush();
      return CompletableResultCode.ofSuccess();
    } catch (IOException e) {
      return CompletableResultCode.ofExceptionalFailure(e);
    }
  }

  static String line(SpanData span) throws JsonProcessingException {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("trace_id", span.getTraceId());
    line.put("span_id", span.getSpanId());
    line.put(
        "parent_span_id", SpanId.isValid(span.getParentSpanId()) ? span.getParentSpanId() : null);
    line.put("name", span.getName());
    line.put("kind", span.getKind().name());
    line.put("start", time(span.getStartEpochNanos()));
    line.put("end", time(span.getEndEpochNanos()));
    line.put("attributes", attributes(span.getAttributes()));
    List<Map<String, Object>> events = new ArrayList<>();
    for (EventData event : span.getEvents()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("name", event.getName());
      e.put("time", time(event.getEpochNanos()));
      e.put("attributes", attributes(event.getAttributes()));
      events.add(e);
    }
    line.put("events", events);
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("code", span.getStatus().getStatusCode().name());
    if (!span.getStatus().getDescription().isEmpty()) {
      status.put("description", span.getStatus().getDescription());
    }
    line.put("status", status);
    return JSON.writeValueAsString(line);
  }

  private static String time(long epochNanos) {
    return Instant.ofEpochSecond(0, epochNanos).toString();
  }

  private static Map<String, Object> attributes(Attributes attributes) {
    Map<String, Object> map = new LinkedHashMap<>();
    attributes.forEach((key, value) -> map.put(key.getKey(), value));
    return map;
  }

  @Override
  public synchronized CompletableResultCode flush() {
    try {
      if (!closed) {
        out.flush();
      }
      return CompletableResultCode.ofSuccess();
    } catch (IOException e) {
      return CompletableResultCode.ofExceptionalFailure(e);
    }
  }

  @Override
  public synchronized CompletableResultCode shutdown() {
    if (closed) {
      return CompletableResultCode.ofSuccess();
    }
    closed = true;
    try {
      out.close();
      return CompletableResultCode.ofSuccess();
    } catch (IOException e) {
      return CompletableResultCode.ofExceptionalFailure(e);
    }
  }
}
