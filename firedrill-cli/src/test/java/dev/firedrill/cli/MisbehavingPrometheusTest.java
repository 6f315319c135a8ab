package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.testing.StubHttpServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One harness for a Prometheus that starts healthy and misbehaves once the fault is on: each case
 * ends with the verdict and exit code docs/reliability.md gives, within the planned duration plus
 * the timeouts and the recovery window, with the fault rolled back and verified, and one console
 * line saying what Prometheus did.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MisbehavingPrometheusTest {

  private static final String HEALTHY =
      "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
          + "[{\"metric\":{},\"value\":[1700000000,\"0\"]}]}}";

  /**
   * Planned: 3 s of fault, 1 s of recovery; preflight and the last query may each take their 1 s
   * timeout; 4 s for starting and stopping the worker on a loaded machine.
   */
  private static final Duration LONGEST = Duration.ofSeconds(3 + 1 + 2 * 1 + 4);

  enum Case {
    NEVER_ANSWERS(StubHttpServer::hang, "timed out", ExitCode.INCONCLUSIVE),
    ANSWERS_AFTER_THE_TIMEOUT(
        s -> s.delay(Duration.ofSeconds(3)), "timed out", ExitCode.INCONCLUSIVE),
    HTML_500(
        s -> s.respond(500, "text/html", "<html><h1>Internal Server Error</h1></html>"),
        "500",
        ExitCode.INCONCLUSIVE),
    HTML_503(
        s -> s.respond(503, "text/html", "<html><h1>Service Unavailable</h1></html>"),
        "503",
        ExitCode.INCONCLUSIVE),
    INVALID_JSON(
        s -> s.respondJson(200, "{\"status\":\"success\",\"data\":{"),
        "JSON",
        ExitCode.INCONCLUSIVE),
    THREE_SERIES(
        s ->
            s.respondJson(
                200,
                "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
                    + "{\"metric\":{\"a\":\"1\"},\"value\":[1700000000,\"0\"]},"
                    + "{\"metric\":{\"a\":\"2\"},\"value\":[1700000000,\"0\"]},"
                    + "{\"metric\":{\"a\":\"3\"},\"value\":[1700000000,\"0\"]}]}}"),
        "3 series",
        ExitCode.INCONCLUSIVE),
    MATRIX_FOR_VECTOR(
        s ->
            s.respondJson(
                200,
                "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":"
                    + "[{\"metric\":{},\"values\":[[1700000000,\"0\"]]}]}}"),
        "matrix",
        ExitCode.INCONCLUSIVE),
    // Go reads 1e309 as +Inf, as firedrill does: a breach like +Inf.
    OUT_OF_RANGE(
        s -> s.respondJson(200, HEALTHY.replace("\"0\"", "\"1e309\"")), "+Inf", ExitCode.ABORTED),
    NAN(s -> s.respondJson(200, HEALTHY.replace("\"0\"", "\"NaN\"")), "NaN", ExitCode.ABORTED),
    PLUS_INF(
        s -> s.respondJson(200, HEALTHY.replace("\"0\"", "\"+Inf\"")), "Inf", ExitCode.ABORTED),
    LOGIN_REDIRECT(
        s -> s.redirect(302, "/login?redirect=%2Fapi%2Fv1%2Fquery"), "302", ExitCode.INCONCLUSIVE);

    final Consumer<StubHttpServer> misbehave;
    final String said;
    final int exit;

    Case(Consumer<StubHttpServer> misbehave, String said, int exit) {
      this.misbehave = misbehave;
      this.said = said;
      this.exit = exit;
    }
  }

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(Case.class)
  void aPrometheusMisbehavingMidDrillEndsItOnTimeWithTheFaultRolledBack(Case c) throws Exception {
    try (StubHttpServer prometheus = StubHttpServer.start()) {
      prometheus.respondJson(200, HEALTHY);
      // Healthy for the preflight's query, misbehaving from the first measurement with the fault
      // on.
      prometheus.after(1, c.misbehave);
      Path file = dir.resolve(c.name().toLowerCase() + ".yaml");
      Files.writeString(
          file,
          """
          id: misbehaving-prometheus
          title: A misbehaving Prometheus ends the drill on time
          prometheus: {url: %s, timeout: 1s}
          steady_state:
            interval: 1s
            slis:
              - {name: error_ratio, query: 'sum(rate(errors_total[1m]))', max: 0.02}
          hypothesis: {recovery: 1s}
          method:
            duration: 3s
            faults: [{kind: cpu-burn, workers: 1, ttl: 1m}]
          abort: {rules: [{sli: error_ratio, above: 0.5}]}
          blast_radius: {traffic_share: 5%%, max_duration: 15m, max_workers: 1}
          """
              .formatted(prometheus.url("")));
      Path journal = dir.resolve(c.name().toLowerCase() + ".json");
      CliRun run = CliRun.of("run", file.toString(), "--journal", journal.toString());

      JsonNode record = new ObjectMapper().readTree(journal.toFile());
      Duration took =
          Duration.between(
              Instant.parse(record.get("started_at").asText()),
              Instant.parse(record.get("finished_at").asText()));
      System.out.printf(
          "%s: exit %d, verdict %s, drill %.1f s%n",
          c, run.exit(), record.path("verdict").asText(), took.toMillis() / 1000.0);
      assertThat(took).as(run.describe()).isLessThan(LONGEST);
      assertThat(record.path("injected_at").isMissingNode()).as(run.describe()).isFalse();
      assertThat(record.path("rollback_ok").asBoolean()).as(run.describe()).isTrue();
      // A value Prometheus should never send breaches the SLI: the abort rule stops the drill. A
      // Prometheus that cannot be read leaves the hypothesis untested: inconclusive.
      assertThat(run.exit()).as(run.describe()).isEqualTo(c.exit);
      assertThat(run.out() + run.err()).as(run.describe()).doesNotContain("\tat ", "Exception");
      assertThat((run.out() + run.err()).lines().filter(l -> l.contains(c.said)).count())
          .as("a console line naming what Prometheus did (%s)\n%s", c.said, run.describe())
          .isPositive();
    }
  }
}
