package dev.firedrill.marker.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.testing.StubHttpServer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the drill's spans go: JSON lines beside the journal, or OTLP http/protobuf by the OTEL_
 * variables.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TraceExportTest {

  private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
  private static final String TOKEN = "s3cret-otlp-token";

  @TempDir Path dir;

  @Test
  void withoutAnEndpointSpansAreJsonLinesBesideTheJournal() throws IOException {
    TraceExport.Opened opened = TraceExport.open(Map.of(), dir.resolve("drill-20261129.json"));
    Path file = dir.resolve("drill-20261129.spans.jsonl");
    assertThat(opened.description()).isEqualTo(file.toString());

    emitTwoSpans(opened.provider());
    opened.provider().shutdown().join(10, TimeUnit.SECONDS);

    List<String> lines = Files.readAllLines(file);
    assertThat(lines).hasSize(2);
    ObjectMapper json = new ObjectMapper();
    JsonNode child = json.readTree(lines.get(0));
    JsonNode root = json.readTree(lines.get(1));
    assertThat(root.get("name").asText()).isEqualTo("drill d-1");
    assertThat(root.get("parent_span_id").isNull()).isTrue();
    assertThat(root.get("trace_id").asText()).matches("[0-9a-f]{32}");
    assertThat(root.get("start").asText()).isEqualTo("2026-11-29T10:00:00Z");
    assertThat(root.get("end").asText()).isEqualTo("2026-11-29T10:01:00Z");
    assertThat(root.get("attributes").toString()).isEqualTo("{\"chaos.experiment.id\":\"d-1\"}");
    assertThat(root.get("events").toString())
        .isEqualTo(
            "[{\"name\":\"drill aborted\",\"time\":\"2026-11-29T10:00:30.500Z\","
                + "\"attributes\":{\"chaos.abort.reason\":\"burn rate 200 above 100\"}}]");
    assertThat(root.get("status").toString())
        .isEqualTo("{\"code\":\"ERROR\",\"description\":\"burn rate 200 above 100\"}");
    assertThat(child.get("name").asText()).isEqualTo("measure");
    assertThat(child.get("kind").asText()).isEqualTo("INTERNAL");
    assertThat(child.get("trace_id").asText()).isEqualTo(root.get("trace_id").asText());
    assertThat(child.get("parent_span_id").asText()).isEqualTo(root.get("span_id").asText());
    assertThat(child.get("start").asText()).isEqualTo("2026-11-29T10:00:05Z");
    assertThat(child.get("end").asText()).isEqualTo("2026-11-29T10:00:05.250Z");
    assertThat(child.get("attributes").toString())
        .isEqualTo("{\"chaos.phase\":\"during\",\"chaos.guard.value\":0.2}");
    assertThat(child.get("status").toString()).isEqualTo("{\"code\":\"UNSET\"}");
  }

  @Test
  void anEndpointSendsProtobufToV1TracesWithTheHeadersAndNeverLogsThem() {
    List<LogRecord> logged = new ArrayList<>();
    Logger otel = Logger.getLogger("io.opentelemetry");
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            logged.add(record);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    otel.addHandler(capture);
    try (StubHttpServer collector = StubHttpServer.start()) {
      // a collector that echoes the credentials it refused, with their scheme and without
      collector.respond(
          401,
          "text/plain",
          "invalid credentials: Bearer " + TOKEN + "; token " + TOKEN + " is unknown");
      TraceExport.Opened opened =
          TraceExport.open(
              Map.of(
                  "OTEL_EXPORTER_OTLP_ENDPOINT",
                  collector.url("").toString(),
                  "OTEL_EXPORTER_OTLP_HEADERS",
                  "authorization=Bearer%20" + TOKEN + ",x-tenant=lab",
                  "OTEL_SERVICE_NAME",
                  "drills"),
              dir.resolve("drill.json"));
      assertThat(opened.description()).isEqualTo("OTLP " + collector.url("/v1/traces"));

      emitTwoSpans(opened.provider());
      opened.provider().shutdown().join(10, TimeUnit.SECONDS);

      StubHttpServer.Request sent = collector.lastRequest();
      assertThat(sent.method()).isEqualTo("POST");
      assertThat(sent.path()).isEqualTo("/v1/traces");
      assertThat(sent.headers())
          .containsEntry("content-type", "application/x-protobuf")
          .containsEntry("authorization", "Bearer " + TOKEN)
          .containsEntry("x-tenant", "lab");
      // protobuf keeps strings as UTF-8 bytes: the span names, the id and the service name are in
      // the body
      assertThat(sent.body())
          .contains("drill d-1", "measure", "chaos.experiment.id", "d-1", "drills");
      assertThat(Files.exists(dir.resolve("drill.spans.jsonl"))).isFalse();
      assertThat(logged).as("the SDK reports the 401").isNotEmpty();
      assertThat(logged)
          .extracting(LogRecord::getMessage)
          .anySatisfy(
              message ->
                  assertThat(message)
                      .contains(
                          "401", "invalid credentials: <redacted>", "token <redacted> is unknown"));
      assertThat(logged)
          .allSatisfy(
              record ->
                  assertThat(String.valueOf(record.getMessage()) + record.getThrown())
                      .doesNotContain(TOKEN));
    } finally {
      otel.removeHandler(capture);
    }
  }

  @Test
  void theCredentialsOfABasicHeaderAreHiddenDecodedAndAsThePasswordAlone() {
    String basic =
        Base64.getEncoder().encodeToString(("drills:" + TOKEN).getBytes(StandardCharsets.UTF_8));
    List<String> secrets = TraceExport.secrets(List.of("Basic " + basic, "lab"));

    assertThat(secrets).containsExactly("Basic " + basic, basic, "drills:" + TOKEN, TOKEN, "lab");
    assertThat(
            TraceExport.redact(
                "refused " + basic + " (drills:" + TOKEN + "), password " + TOKEN, secrets))
        .isEqualTo("refused <redacted> (<redacted>), password <redacted>");
  }

  @Test
  void theTracesEndpointIsUsedAsItIsAndItsHeadersWin() {
    OtlpSettings settings =
        OtlpSettings.from(
                Map.of(
                    "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318",
                    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                        "https://user:pw@collector.example:4318/custom/traces?x=1",
                    "OTEL_EXPORTER_OTLP_HEADERS", "authorization=general,x-a=1",
                    "OTEL_EXPORTER_OTLP_TRACES_HEADERS", "authorization=" + TOKEN))
            .orElseThrow();

    assertThat(settings.endpoint())
        .isEqualTo(URI.create("https://user:pw@collector.example:4318/custom/traces?x=1"));
    assertThat(settings.headers()).isEqualTo(Map.of("authorization", TOKEN, "x-a", "1"));
    assertThat(settings.display()).isEqualTo("https://collector.example:4318/custom/traces");
    assertThat(settings.toString()).doesNotContain(TOKEN).doesNotContain("pw");
    assertThat(
            OtlpSettings.from(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318/"))
                .orElseThrow()
                .endpoint())
        .isEqualTo(URI.create("http://127.0.0.1:4318/v1/traces"));
    assertThat(OtlpSettings.from(Map.of("OTEL_EXPORTER_OTLP_HEADERS", "a=b"))).isEmpty();
  }

  @Test
  void unusableVariablesAreOneLineWithoutTheirSecrets() {
    assertThatThrownBy(
            () -> OtlpSettings.from(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318")))
        .hasMessage(
            "OTEL_EXPORTER_OTLP_ENDPOINT is not a usable URL (expected http://HOST:PORT or https://HOST:PORT)");
    assertThatThrownBy(
            () ->
                OtlpSettings.from(
                    Map.of(
                        "OTEL_EXPORTER_OTLP_ENDPOINT",
                        "http://127.0.0.1:4318",
                        "OTEL_EXPORTER_OTLP_HEADERS",
                        "x-a=1," + TOKEN)))
        .hasMessage(
            "OTEL_EXPORTER_OTLP_HEADERS: entry 2 is not usable (expected key=value pairs separated by commas)");
    assertThatThrownBy(
            () ->
                OtlpSettings.from(
                    Map.of(
                        "OTEL_EXPORTER_OTLP_ENDPOINT",
                        "http://127.0.0.1:4318",
                        "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
                        "authorization=" + TOKEN + "%zz")))
        .hasMessage(
            "OTEL_EXPORTER_OTLP_TRACES_HEADERS: entry 1 is not usable (its value has a bad percent-encoding)");
    assertThatThrownBy(
            () ->
                OtlpSettings.from(
                    Map.of(
                        "OTEL_EXPORTER_OTLP_ENDPOINT",
                        "http://127.0.0.1:4317",
                        "OTEL_EXPORTER_OTLP_PROTOCOL",
                        "grpc")))
        .hasMessage(
            "OTEL_EXPORTER_OTLP_PROTOCOL \"grpc\" is not supported (expected http/protobuf)");
  }

  @Test
  void aDisabledSdkExportsNothing() {
    TraceExport.Opened opened =
        TraceExport.open(
            Map.of(
                "OTEL_SDK_DISABLED",
                "true",
                "OTEL_EXPORTER_OTLP_ENDPOINT",
                "http://127.0.0.1:" + StubHttpServer.closedPort()),
            dir.resolve("drill.json"));

    assertThat(opened.description()).isEqualTo("not exported (OTEL_SDK_DISABLED=true)");
    assertThat(opened.provider().get("t").spanBuilder("x").startSpan().getSpanContext().isValid())
        .isFalse();
    opened.provider().shutdown().join(5, TimeUnit.SECONDS);
    assertThat(Files.exists(dir.resolve("drill.spans.jsonl"))).isFalse();
  }

  @Test
  void aSpansFileThatCannotBeWrittenFailsBeforeTheDrill() throws Exception {
    Path notADirectory = Files.writeString(dir.resolve("a-file"), "");
    Path journal = notADirectory.resolve("drill.json");

    assertThatThrownBy(() -> TraceExport.open(Map.of(), journal))
        .hasMessageStartingWith(
            "cannot write spans to " + notADirectory.resolve("drill.spans.jsonl") + ": ");
  }

  @Test
  void theJournalsDirectoryIsCreatedWhenItDoesNotExistYet() throws Exception {
    Path journal = dir.resolve("journals").resolve("drill.json");

    TraceExport.Opened opened = TraceExport.open(Map.of(), journal);
    opened.provider().shutdown().join(5, TimeUnit.SECONDS);

    assertThat(dir.resolve("journals").resolve("drill.spans.jsonl")).exists();
  }

  /**
   * A root with an abort event and error status, and one child measurement, on explicit timestamps.
   */
  private static void emitTwoSpans(SdkTracerProvider provider) {
    Tracer tracer = provider.get("test");
    Span root =
        tracer
            .spanBuilder("drill d-1")
            .setNoParent()
            .setStartTimestamp(T0)
            .setAttribute(AttributeKey.stringKey("chaos.experiment.id"), "d-1")
            .startSpan();
    Span child =
        tracer
            .spanBuilder("measure")
            .setParent(io.opentelemetry.context.Context.root().with(root))
            .setStartTimestamp(T0.plusSeconds(5))
            .setAttribute(AttributeKey.stringKey("chaos.phase"), "during")
            .setAttribute(AttributeKey.doubleKey("chaos.guard.value"), 0.2)
            .startSpan();
    child.end(T0.plusMillis(5_250));
    root.addEvent(
        "drill aborted",
        Attributes.of(AttributeKey.stringKey("chaos.abort.reason"), "burn rate 200 above 100"),
        T0.plusMillis(30_500));
    root.setStatus(StatusCode.ERROR, "burn rate 200 above 100");
    root.end(T0.plusSeconds(60));
  }
}
