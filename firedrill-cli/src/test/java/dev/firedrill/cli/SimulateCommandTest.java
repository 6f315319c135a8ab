package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.testing.StubHttpServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What simulate refuses before anything runs, and the dates its journal carries; whole simulated
 * drills are in SimulatedDrillTest.
 */
class SimulateCommandTest {

  @TempDir Path dir;

  @Test
  void aModelFileWithAnUnknownKeyIsRefusedNamingItsNearestKey() throws Exception {
    Path model = Files.writeString(dir.resolve("model.yaml"), "payments: {latncy: 40ms}\n");

    CliRun run =
        CliRun.of(
            "simulate", "fixtures/experiments/payments-outage.yaml", "--model", model.toString());

    assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.INVALID);
    assertThat(run.err())
        .contains(
            model
                + ": /payments/latncy: unknown key; did you mean \"latency\"? (line 1, column 12)");
  }

  @Test
  void aMissingModelFileSaysSoAndWhereModelsAreDescribed() {
    Path model = dir.resolve("none.yaml");

    CliRun run =
        CliRun.of(
            "simulate", "fixtures/experiments/payments-outage.yaml", "--model", model.toString());

    assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.INVALID);
    assertThat(run.err())
        .contains(model + ": cannot read: no such file (expected a model file: docs/simulate.md)");
  }

  @Test
  void aDurationFlagThatIsNoDurationIsRefused() {
    CliRun run =
        CliRun.of(
            "simulate", "fixtures/experiments/payments-outage.yaml", "--checkout-timeout", "soon");

    assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.INVALID);
    assertThat(run.err())
        .contains("firedrill simulate: --checkout-timeout soon: expected a duration such as 300ms");
  }

  @Test
  void aSimulatedDrillIsDatedInThePastNeverInTheFuture() throws Exception {
    Path journal = dir.resolve("sim.json");
    Instant before = Instant.now();

    CliRun run =
        CliRun.of(
            "simulate",
            "fixtures/experiments/payments-outage.yaml",
            "--journal",
            journal.toString());
    Instant after = Instant.now();

    assertThat(run.out()).as(run.describe()).contains("SIMULATION:");
    JsonNode written = new ObjectMapper().readTree(journal.toFile());
    Instant started = Instant.parse(written.get("started_at").asText());
    Instant finished = Instant.parse(written.get("finished_at").asText());
    assertThat(finished).as("the drill's end").isBefore(after);
    // In the past, but the recent past: a prediction made now.
    assertThat(started).isAfter(before.minusSeconds(3600));
    assertThat(written.has("simulation")).isTrue();
  }

  /**
   * The lab's config with one more rule file, written in Prometheus 3's grammar (a duration
   * expression), and the payments-outage drill pointed at {@code prometheus}.
   */
  private String[] prometheus3Rules(StubHttpServer prometheus) throws Exception {
    Path lab = Files.createDirectories(dir.resolve("lab"));
    Files.copy(Path.of("fixtures/lab/recording-rules.yml"), lab.resolve("recording-rules.yml"));
    Files.writeString(
        lab.resolve("three.yml"),
        "groups:\n  - name: three\n    rules:\n      - record: job:requests:rate10s\n"
            + "        expr: sum by (job) (rate(http_server_requests_total[5s * 2]))\n");
    Files.writeString(
        lab.resolve("prometheus.yml"),
        Files.readString(Path.of("fixtures/lab/prometheus.yml"))
            .replace(
                "  - ../../alert-rules/*.yml",
                "  - " + Path.of("alert-rules").toAbsolutePath() + "/*.yml\n  - three.yml"));
    Path experiment =
        Files.writeString(
            dir.resolve("drill.yaml"),
            Files.readString(Path.of("fixtures/experiments/payments-outage.yaml"))
                .replace(
                    "http://127.0.0.1:19090", prometheus.url("/").toString().replaceAll("/$", "")));
    return new String[] {
      "simulate",
      experiment.toString(),
      "--prometheus-config",
      lab.resolve("prometheus.yml").toString(),
      "--alertmanager-config",
      "fixtures/lab/alertmanager.yml",
      "--journal",
      dir.resolve("journal.json").toString(),
      "--warmup",
      "10s"
    };
  }

  @Test
  void withoutCompatTheModeIsTheLivePrometheussAndATwoDotXRefusesThreeDotXRules() throws Exception {
    try (StubHttpServer prometheus = StubHttpServer.start()) {
      prometheus.respondJson(200, "{\"status\":\"success\",\"data\":{\"version\":\"2.42.0+ds\"}}");

      CliRun run = CliRun.of(prometheus3Rules(prometheus));

      assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.INVALID);
      assertThat(run.out())
          .contains(
              "SIMULATION: PromQL of Prometheus 2 (as http://127.0.0.1:"
                  + prometheus.port()
                  + " is Prometheus 2.42.0+ds by its /api/v1/status/buildinfo)");
      assertThat(run.err()).contains("three.yml").contains("--compat 3 reads it");
    }
  }

  @Test
  void compatThreeReadsThemWhateverTheLivePrometheusIs() throws Exception {
    try (StubHttpServer prometheus = StubHttpServer.start()) {
      prometheus.respondJson(200, "{\"status\":\"success\",\"data\":{\"version\":\"2.42.0+ds\"}}");
      String[] args = prometheus3Rules(prometheus);
      String[] withCompat = java.util.Arrays.copyOf(args, args.length + 2);
      withCompat[args.length] = "--compat";
      withCompat[args.length + 1] = "3";

      CliRun run = CliRun.of(withCompat);

      assertThat(run.out())
          .as(run.describe())
          .contains("SIMULATION: PromQL of Prometheus 3 (--compat 3)");
      assertThat(run.err()).doesNotContain("--compat 3 reads it");
      assertThat(run.exit()).as(run.describe()).isNotEqualTo(ExitCode.INVALID);
      assertThat(Files.readString(dir.resolve("journal.json"))).contains("\"promql_compat\" : 3");
    }
  }
}
