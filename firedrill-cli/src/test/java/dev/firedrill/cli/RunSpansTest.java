package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.testing.StubHttpServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code firedrill run} writes the drill's spans beside the journal, and its Prometheus queries
 * carry the drill's trace and baggage.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RunSpansTest {

  @TempDir Path dir;

  @Test
  void aRunWritesItsSpansBesideTheJournalAndItsQueriesCarryTheTrace() throws IOException {
    for (String variable :
        List.of(
            "OTEL_EXPORTER_OTLP_ENDPOINT",
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
            "OTEL_SDK_DISABLED")) {
      Assumptions.assumeTrue(
          System.getenv(variable) == null, variable + " is set in this environment");
    }
    try (StubHttpServer prometheus = StubHttpServer.start()) {
      // no data before injection: the steady state cannot be measured, so nothing is injected
      prometheus.respondJson(
          200, "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}");
      Path file = dir.resolve("spans-run.yaml");
      Files.writeString(
          file,
          """
          id: spans-run
          title: Spans beside the journal
          prometheus:
            url: %s
            timeout: 2s
          steady_state:
            interval: 1s
            slis:
              - name: error_ratio
                query: 'sum(rate(errors_total[1m]))'
                max: 0.02
                missing: fail
          hypothesis:
            recovery: 30s
          method:
            duration: 10s
            faults:
              - kind: cpu-burn
                workers: 1
                ttl: 1m
          abort:
            burn_rate:
              objective: 99.9%%
              window: 30d
              error_ratio: 'sum(rate(errors_total[1m]))'
              max: 14.4
          blast_radius:
            traffic_share: 5%%
            max_duration: 15m
            budget_ceiling: 0.05
            max_workers: 1
          """
              .formatted(prometheus.url("")));
      Path journal = dir.resolve("spans-run.json");

      CliRun run = CliRun.of("run", file.toString(), "--journal", journal.toString());

      assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.INCONCLUSIVE);
      Path spans = dir.resolve("spans-run.spans.jsonl");
      assertThat(run.out()).as(run.describe()).contains("spans: " + spans + "\n");
      ObjectMapper json = new ObjectMapper();
      List<JsonNode> lines = new ArrayList<>();
      for (String line : Files.readAllLines(spans)) {
        lines.add(json.readTree(line));
      }
      JsonNode root =
          lines.stream()
              .filter(s -> s.get("name").asText().equals("drill spans-run"))
              .findFirst()
              .orElseThrow();
      assertThat(root.get("attributes").get("chaos.experiment.id").asText()).isEqualTo("spans-run");
      assertThat(root.get("attributes").get("chaos.verdict").asText()).isEqualTo("inconclusive");
      assertThat(lines)
          .extracting(s -> s.get("name").asText())
          .containsExactlyInAnyOrder("measure", "preflight", "drill spans-run");
      String traceId = root.get("trace_id").asText();
      assertThat(prometheus.requests())
          .isNotEmpty()
          .allSatisfy(
              request -> {
                assertThat(request.headers().get("traceparent"))
                    .startsWith("00-" + traceId + "-" + root.get("span_id").asText() + "-");
                assertThat(request.headers())
                    .containsEntry("baggage", "chaos.experiment.id=spans-run");
              });
    }
  }
}
