package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.testing.Misbehaviour;
import dev.firedrill.testing.StubHttpServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The markers are best effort: a Grafana (annotations) or a Pushgateway ({@code
 * chaos_experiment_active}) that misbehaves once the drill has begun leaves the drill's verdict as
 * it would be without it (held, exit 0), the fault rolled back and verified, a console line naming
 * the marker's backend, and the whole run within the plan, the timeouts and the markers' own close
 * limit.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class MisbehavingMarkersTest {

  private static final String HEALTHY_PROMETHEUS =
      "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
          + "[{\"metric\":{},\"value\":[1700000000,\"0\"]}]}}";

  enum Backend {
    /**
     * Annotation created (the POST's answer); the PATCH takes any 200. The POST is answered, the
     * PATCH misbehaves.
     */
    GRAFANA(
        "{\"id\":7,\"message\":\"Annotation added\"}",
        "markers: {grafana: {url: '%s', timeout: 1s}}",
        "grafana: ",
        1,
        // 3 attempts of 1 s with 0.5 s and 1 s between them.
        Duration.ofMillis(4500)),
    /**
     * The annotation's POST itself misbehaves (and the look-ups before its retries): there is no id
     * for a PATCH.
     */
    GRAFANA_POST(
        "{\"id\":7,\"message\":\"Annotation added\"}",
        "markers: {grafana: {url: '%s', timeout: 1s}}",
        "grafana: ",
        0,
        Duration.ofMillis(4500)),
    /** A body of its own, so that there is one to cut (the Pushgateway reads only the status). */
    PUSHGATEWAY(
        "ok\n",
        "markers: {metrics: {pushgateway: '%s', scrape_wait: 1s}}",
        "metrics: pushgateway ",
        1,
        // scrape_wait + 5 s.
        Duration.ofSeconds(6));

    final String healthy;
    final String yaml;
    final String says;

    /** How many of its requests are answered before it misbehaves. */
    final int answered;

    final Duration closeLimit;

    Backend(String healthy, String yaml, String says, int answered, Duration closeLimit) {
      this.healthy = healthy;
      this.yaml = yaml;
      this.says = says;
      this.answered = answered;
      this.closeLimit = closeLimit;
    }
  }

  static Stream<Arguments> cases() {
    return Misbehaviour.against(Backend.values());
  }

  @TempDir Path dir;

  // Its cases run four at a time: each is a drill on stubs, a folder and a history of its own,
  // mostly waiting out the timeouts it tests. The class itself runs alone, as every class here does
  // (another sends signals to this JVM).
  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void aMisbehavingMarkerBackendIsReportedAndLeavesTheDrillAsItWas(Backend b, Misbehaviour m)
      throws Exception {
    try (StubHttpServer prometheus = StubHttpServer.start();
        StubHttpServer marker = StubHttpServer.start()) {
      prometheus.respondJson(200, HEALTHY_PROMETHEUS);
      marker.respondJson(200, b.healthy);
      // The first marker request (the annotation's POST, the first push) is answered, or not even
      // that one; every one after misbehaves.
      marker.after(b.answered, m::on);
      String name = (b + "-" + m).toLowerCase();
      ExperimentRun drill =
          ExperimentRun.of(
              dir,
              name,
              """
          id: misbehaving-marker
          title: A misbehaving marker backend does not change the drill
          prometheus: {url: %s, timeout: 1s}
          steady_state:
            interval: 1s
            slis:
              - {name: error_ratio, query: 'sum(rate(errors_total[1m]))', max: 0.02}
          hypothesis: {recovery: 1s}
          method:
            duration: 2s
            faults: [{kind: cpu-burn, workers: 1, ttl: 1m}]
          abort: {rules: [{sli: error_ratio, above: 0.5}]}
          blast_radius: {traffic_share: 5%%, max_duration: 15m, max_workers: 1}
          %s
          """
                  .formatted(prometheus.url(""), b.yaml.formatted(marker.url(""))));
      CliRun run = drill.run();
      JsonNode record = drill.journal();
      Duration took = drill.took();
      System.out.printf(
          "%s %s: exit %d, verdict %s, run %.1f s%n",
          b, m, run.exit(), record.path("verdict").asText(), took.toMillis() / 1000.0);
      run.out().lines().filter(l -> l.startsWith(b.says)).forEach(System.out::println);
      // Planned 2 s + 1 s recovery; the preflight's and the last query's 1 s timeouts; the
      // markers' close limit; 4 s for starting and stopping the worker on a loaded machine.
      assertThat(took)
          .as(run.describe())
          .isLessThan(Duration.ofSeconds(2 + 1 + 2 + 4).plus(b.closeLimit));
      assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.HELD);
      assertThat(record.path("rollback_ok").asBoolean()).as(run.describe()).isTrue();
      // No stack trace; a marker's note may name an exception's simple class, never its package.
      assertThat(run.out() + run.err())
          .as(run.describe())
          .doesNotContain("\tat ", "java.io.", "java.net.");
      assertThat(marker.requests().size()).as(run.describe()).isGreaterThan(b.answered);
      // Away and back may go unnoticed (a push or a PATCH that falls after its return succeeds);
      // a 200 is success whatever its body says (neither the PATCH's nor a push's is read), but the
      // POST's must carry the annotation's id.
      boolean noticed =
          m != Misbehaviour.GONE_AND_BACK
              && (m != Misbehaviour.INVALID_JSON || b == Backend.GRAFANA_POST);
      if (noticed) {
        assertThat(
                run.out()
                    .lines()
                    .filter(l -> l.startsWith(b.says))
                    .filter(l -> !l.contains(" added at ") && !l.contains(" is now a region"))
                    .count())
            .as("a console line naming the marker's backend (%s)\n%s", b.says, run.describe())
            .isPositive();
      }
    }
  }
}
