package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.testing.Misbehaviour;
import dev.firedrill.testing.StubHttpServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
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
    NEVER_ANSWERS(Misbehaviour.NEVER_ANSWERS::on, "timed out", ExitCode.INCONCLUSIVE),
    ANSWERS_AFTER_THE_TIMEOUT(
        Misbehaviour.ANSWERS_AFTER_THE_TIMEOUT::on, "timed out", ExitCode.INCONCLUSIVE),
    HTML_500(Misbehaviour.HTML_500::on, "500", ExitCode.INCONCLUSIVE),
    HTML_503(Misbehaviour.HTML_503::on, "503", ExitCode.INCONCLUSIVE),
    INVALID_JSON(Misbehaviour.INVALID_JSON::on, "JSON", ExitCode.INCONCLUSIVE),
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
    LOGIN_REDIRECT(Misbehaviour.LOGIN_REDIRECT::on, "302", ExitCode.INCONCLUSIVE),
    CUT_MID_BODY(Misbehaviour.CUT_MID_BODY::on, "cannot reach Prometheus", ExitCode.INCONCLUSIVE),
    RESET_MID_BODY(
        Misbehaviour.RESET_MID_BODY::on, "cannot reach Prometheus", ExitCode.INCONCLUSIVE),
    ENDLESS_BODY(
        s ->
            s.endlessBody(
                "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[",
                "{\"metric\":{},\"value\":[1700000000,\"0\"]},"),
        "larger than",
        ExitCode.INCONCLUSIVE),
    // Any measurement with the fault on that proves nothing leaves the drill inconclusive; the
    // test also asserts that the drill read Prometheus again once it was back.
    GONE_AND_BACK(Misbehaviour.GONE_AND_BACK::on, "cannot reach", ExitCode.INCONCLUSIVE);

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

  // Its cases run four at a time: each is a drill on stubs, a folder and a history of its own,
  // mostly waiting out the timeouts it tests. The class itself runs alone, as every class here does
  // (another sends signals to this JVM).
  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest
  @EnumSource(Case.class)
  void aPrometheusMisbehavingMidDrillEndsItOnTimeWithTheFaultRolledBack(Case c) throws Exception {
    try (StubHttpServer prometheus = StubHttpServer.start()) {
      prometheus.respondJson(200, HEALTHY);
      // Healthy for the preflight's query, misbehaving from the first measurement with the fault
      // on.
      prometheus.after(1, c.misbehave);
      ExperimentRun drill =
          ExperimentRun.of(
              dir,
              c.name().toLowerCase(),
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
      CliRun run = drill.run();
      JsonNode record = drill.journal();
      Duration took = drill.drillTime();
      System.out.printf(
          "%s: exit %d, verdict %s, drill %.1f s%n",
          c, run.exit(), record.path("verdict").asText(), took.toMillis() / 1000.0);
      run.out().lines().filter(l -> l.contains(c.said)).limit(1).forEach(System.out::println);
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
      if (c == Case.GONE_AND_BACK) {
        assertThat(run.out()).as(run.describe()).contains("after ok: error_ratio 0");
      }
      if (c == Case.ENDLESS_BODY) {
        // Each answer was read up to the client's 32 MiB limit (plus what the four socket buffers
        // between the stub's server, its front and the client hold),
        // not for as long as the stub could send.
        long answers = prometheus.requests().size() - 1;
        assertThat(prometheus.bytesSent() / answers)
            .as(run.describe())
            .isLessThan(64L * 1024 * 1024);
      }
    }
  }
}
