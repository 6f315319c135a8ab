package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.experiment.Hypothesis;
import dev.firedrill.experiment.Missing;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.testing.StubHttpServer;
import dev.firedrill.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Prometheus on loopback that answers every query healthy but only after 1.5 s, against a 2 s
 * timeout and a 1 s interval: the drill keeps its plan. Before, the SLI and the burn-rate guard
 * were queried one after the other (3 s a measurement) and the observe loop measured again at once
 * without checking whether the method was over, so a 4 s method never ended.
 */
class SlowPrometheusDrillTest {

  private static final Duration METHOD = Duration.ofSeconds(4);

  @Test
  @Timeout(60)
  void aSlowPrometheusNeitherLengthensTheMethodNorGoesUnsaid() {
    long epoch = Instant.now().getEpochSecond();
    try (StubHttpServer prometheus = StubHttpServer.start()) {
      prometheus
          .respondJson(
              200,
              "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
                  + "{\"metric\":{},\"value\":["
                  + epoch
                  + ",\"0.001\"]}]}}")
          .delay(Duration.ofMillis(1500));
      ScriptedDrill drill = new ScriptedDrill(Clock.system());
      drill.measureWith(
          new HttpPrometheusClient(prometheus.url(""), Duration.ofSeconds(2), Optional.empty()));
      drill.fault("burn");

      DrillResult result =
          drill.run(
              drill
                  .experiment()
                  .steadyState(ScriptedDrill.steadyState(Duration.ofSeconds(1), Missing.FAIL))
                  .hypothesis(new Hypothesis("errors stay under 1%", Duration.ofSeconds(2)))
                  .method(drill.method(METHOD))
                  .build());

      Duration during = phaseStart(drill, Phase.DURING);
      Duration rollback = phaseStart(drill, Phase.ROLLBACK);
      Duration method = rollback.minus(during);
      System.out.println(
          "slow Prometheus (1.5 s a query): method planned "
              + METHOD
              + ", took "
              + method
              + "; whole drill "
              + drill.milestones().get(drill.milestones().size() - 1).offset());
      assertThat(method).isBetween(METHOD, METHOD.plus(Drill.POLL).plusMillis(500));
      assertThat(result.verdict()).isEqualTo(Verdict.HELD);
      assertThat(result.reason()).contains("Prometheus was slow: ").contains("1s interval");
      List<Milestone.SlowMeasurement> slow = drill.milestones(Milestone.SlowMeasurement.class);
      assertThat(slow).isNotEmpty();
      // Both queries of one measurement ran at once: it took about one query's time, not two.
      assertThat(slow).allSatisfy(s -> assertThat(s.took()).isLessThan(Duration.ofMillis(2900)));
      assertThat(drill.lines()).anyMatch(line -> line.contains("slow: the measurement took"));
    }
  }

  private static Duration phaseStart(ScriptedDrill drill, Phase phase) {
    return drill.milestones(Milestone.PhaseStarted.class).stream()
        .filter(p -> p.phase() == phase)
        .findFirst()
        .orElseThrow()
        .offset();
  }
}
