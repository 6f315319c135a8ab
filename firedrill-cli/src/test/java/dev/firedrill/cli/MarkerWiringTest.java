package dev.firedrill.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.Verdict;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.GrafanaTarget;
import dev.firedrill.experiment.Markers;
import dev.firedrill.experiment.TokenSource;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.time.VirtualClock;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The log and Grafana sinks as {@code run} opens them: files, streams, tokens. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MarkerWiringTest {

  @RegisterExtension
  static final WireMockExtension grafana =
      WireMockExtension.newInstance()
          .options(wireMockConfig().bindAddress("127.0.0.1").dynamicPort())
          .build();

  private static final String TOKEN = "glsa_s3cr3t-token-value";

  @TempDir Path dir;

  private final VirtualClock clock = new VirtualClock(ScriptedDrill.START);
  private final ScriptedDrill drill = new ScriptedDrill(clock);

  MarkerWiringTest() {
    drill.fault("burn");
  }

  private final StringWriter events = new StringWriter();
  private final StringWriter stderr = new StringWriter();

  private Experiment withGrafana(TokenSource token) {
    GrafanaTarget target =
        new GrafanaTarget(
            URI.create("http://127.0.0.1:" + grafana.getPort()),
            Optional.empty(),
            Optional.empty(),
            token,
            Duration.ofSeconds(10));
    return drill.experiment().markers(new Markers(Optional.of(target), Optional.empty())).build();
  }

  @Test
  void theLogGoesBesideTheJournalAndToStderrAndHoldsGrafanasNotesWithoutTheToken()
      throws IOException {
    grafana.stubFor(
        post("/api/annotations")
            .willReturn(
                aResponse()
                    .withStatus(401)
                    .withBody("{\"message\":\"invalid API key " + TOKEN + "\"}")));
    Path journal = dir.resolve("journals/checkout-latency-20261129-100000.json");

    MarkerWiring.Opened opened =
        MarkerWiring.open(
            withGrafana(new TokenSource.FromEnv("GRAFANA_TOKEN")),
            Map.of("GRAFANA_TOKEN", TOKEN),
            journal,
            clock,
            new PrintWriter(events, true),
            Optional.of(new PrintWriter(stderr, true)));
    DrillResult result = drill.observer(opened.observer()).run();
    opened.observer().close(opened.closeLimit());

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    assertThat(opened.closeLimit()).isEqualTo(Duration.ofSeconds(36).plusMillis(500));
    String note =
        "POST http://127.0.0.1:"
            + grafana.getPort()
            + "/api/annotations: HTTP 401"
            + " \"invalid API key [redacted]\"; not retried; no annotation was created";
    assertThat(events.toString())
        .isEqualTo(
            "spans: "
                + dir.resolve("journals/checkout-latency-20261129-100000.spans.jsonl")
                + "\n"
                + "grafana: "
                + note
                + "\n"
                + "grafana: region end not sent: the annotation was never created\n");
    String log =
        Files.readString(dir.resolve("journals/checkout-latency-20261129-100000.events.jsonl"));
    assertThat(log).isEqualTo(stderr.toString());
    assertThat(log.lines().map(line -> line.replaceAll(".*\"event\":\"([a-z_]+)\".*", "$1")))
        .containsExactlyInAnyOrder(
            "start", "inject", "rollback", "verdict", "marker_note", "marker_note");
    assertThat(log)
        .contains("\"source\":\"grafana\",\"note\":\"" + note.replace("\"", "\\\"") + "\"");
    assertThat(log + events).doesNotContain(TOKEN);
    assertThat(opened.notes())
        .as("what DrillRunner journals as marker_notes")
        .containsExactly(
            "grafana: " + note, "grafana: region end not sent: the annotation was never created");
  }

  @Test
  void withoutLogFormatJsonNothingGoesToStderr() {
    MarkerWiring.Opened opened =
        MarkerWiring.open(
            drill.experiment().build(),
            Map.of(),
            dir.resolve("j.json"),
            clock,
            new PrintWriter(events, true),
            Optional.empty());
    drill.observer(opened.observer()).run();
    opened.observer().close(opened.closeLimit());

    assertThat(stderr.toString()).isEmpty();
    assertThat(dir.resolve("j.events.jsonl")).isNotEmptyFile();
    assertThat(opened.closeLimit()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void aGrafanaTokenThatCannotBeReadStopsTheRunBeforeTheDrillNamingTheSource() {
    Path missing = dir.resolve("grafana-token");

    assertThatThrownBy(
            () ->
                MarkerWiring.open(
                    withGrafana(new TokenSource.FromEnv("GRAFANA_TOKEN")),
                    Map.of(),
                    dir.resolve("j.json"),
                    clock,
                    new PrintWriter(events, true),
                    Optional.empty()))
        .isInstanceOf(UserError.class)
        .hasMessage(
            "markers.grafana bearer token (env GRAFANA_TOKEN): environment variable GRAFANA_TOKEN is not set"
                + " (expected a bearer token)");
    assertThatThrownBy(
            () ->
                MarkerWiring.open(
                    withGrafana(new TokenSource.FromFile(missing)),
                    Map.of(),
                    dir.resolve("j.json"),
                    clock,
                    new PrintWriter(events, true),
                    Optional.empty()))
        .isInstanceOf(UserError.class)
        .hasMessage(
            "markers.grafana bearer token (file "
                + missing
                + "): "
                + missing
                + ": token file does not exist (expected a bearer token)");
  }

  @Test
  void anUnknownLogFormatIsAUsageError() {
    CliRun run = CliRun.of("run", "--log-format", "yaml", "fixtures/experiments/cpu-burn.yaml");

    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.err())
        .startsWith(
            "firedrill: Invalid value for option '--log-format': expected one of [text, json]"
                + " (case-sensitive) but was 'yaml'");
  }
}
