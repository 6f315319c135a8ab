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
 * A fault proxy's admin API (Toxiproxy-shaped) that misbehaves during an http-error drill's
 * injection, or from its rollback on: the drill ends failed (exit 6) with its rollback verified
 * when only the injection met the misbehaviour, and otherwise either verifies its rollback or ends
 * rollback-failed (exit 7) printing the command a human must run; never "rolled back" unverified.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MisbehavingProxyAdminTest {

  private static final String HEALTHY_PROMETHEUS =
      "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
          + "[{\"metric\":{},\"value\":[1700000000,\"0\"]}]}}";

  /**
   * The healthy admin API for every request this drill makes: the toxics listed (none), the POST's
   * toxic (JSON), the DELETE's 200.
   */
  private static final String HEALTHY_ADMIN = "[]";

  /** Which of the drill's requests to the admin API misbehave. */
  enum Phase {
    /** The POST alone (the plan's GET of the toxics is the one request before it). */
    INJECT("POST"),
    /** The DELETE and everything after it. */
    ROLLBACK("DELETE");

    final String first;

    Phase(String first) {
      this.first = first;
    }
  }

  static Stream<Arguments> cases() {
    return Misbehaviour.against(Phase.values());
  }

  @TempDir Path dir;

  // Its cases run four at a time: each is a drill on stubs, a folder and a history of its own,
  // mostly waiting out the timeouts it tests. The class itself runs alone, as every class here does
  // (another sends signals to this JVM).
  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void aMisbehavingAdminApiNeverLeavesAnUnverifiedRollback(Phase phase, Misbehaviour m)
      throws Exception {
    try (StubHttpServer prometheus = StubHttpServer.start();
        StubHttpServer admin = StubHttpServer.start()) {
      prometheus.respondJson(200, HEALTHY_PROMETHEUS);
      admin.respondJson(200, HEALTHY_ADMIN);
      int before = phase == Phase.INJECT ? 1 : 2;
      admin.after(
          before,
          s -> {
            m.on(s);
            if (phase == Phase.INJECT) {
              s.after(0, healthy -> healthy.delay(Duration.ZERO).respondJson(200, HEALTHY_ADMIN));
            }
          });
      String name = (phase + "-" + m).toLowerCase();
      ExperimentRun drill =
          ExperimentRun.of(
              dir,
              name,
              """
          id: misbehaving-admin
          title: A misbehaving proxy admin API never leaves an unverified rollback
          prometheus: {url: %s, timeout: 1s}
          steady_state:
            interval: 1s
            slis:
              - {name: error_ratio, query: 'sum(rate(errors_total[1m]))', max: 0.02}
          hypothesis: {recovery: 1s}
          method:
            duration: 2s
            faults:
              - {kind: http-error, proxy: '%s', proxy_name: payments, share: 20%%, status: 503, ttl: 1m}
          abort: {rules: [{sli: error_ratio, above: 0.5}]}
          blast_radius: {traffic_share: 20%%, max_duration: 15m}
          """
                  .formatted(prometheus.url(""), admin.url("")));
      CliRun run = drill.run();
      JsonNode record = drill.journal();
      Duration took = drill.took();
      System.out.printf(
          "%s %s: exit %d, verdict %s, run %.1f s%n",
          phase, m, run.exit(), record.path("verdict").asText(), took.toMillis() / 1000.0);
      run.out().lines().filter(l -> l.contains(" http-error: ")).forEach(System.out::println);
      assertThat(admin.requests().get(before).method())
          .as("the first request that misbehaved\n%s", run.describe())
          .isEqualTo(phase.first);
      // Planned 2 s + 1 s recovery; the preflight's and the last query's 1 s timeouts; the
      // injection's 5 s timeout; the rollback's three attempts (5 s each, 0.5 s and 1 s apart) and
      // its verification (5 s); 4 s for a loaded machine.
      assertThat(took)
          .as(run.describe())
          .isLessThan(Duration.ofSeconds(2 + 1 + 2 + 5 + 3 * 5 + 2 + 5 + 4));
      assertThat(run.out() + run.err())
          .as(run.describe())
          .doesNotContain("\tat ", "java.io.", "java.net.");
      boolean verified = record.path("rollback_ok").asBoolean();
      if (verified) {
        assertThat(run.out()).as(run.describe()).contains("verified: the proxy no longer lists");
        assertThat(run.exit())
            .as(run.describe())
            .isEqualTo(phase == Phase.INJECT ? ExitCode.INJECT_FAILED : ExitCode.HELD);
      } else {
        assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.ROLLBACK_FAILED);
        assertThat(run.out() + run.err())
            .as("the command a human must run\n%s", run.describe())
            .contains("curl -X DELETE " + admin.url("/proxies/payments/toxics/"));
      }
      // An injection that only met the misbehaviour has a healthy API to roll back against, as has
      // a rollback whose API comes back within its attempts: both must be verified.
      if (phase == Phase.INJECT || m == Misbehaviour.GONE_AND_BACK) {
        assertThat(verified).as(run.describe()).isTrue();
      } else {
        assertThat(verified).as(run.describe()).isFalse();
      }
    }
  }
}
