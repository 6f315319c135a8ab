package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.testing.ScriptedFault;
import dev.firedrill.testing.StubHttpServer;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A Prometheus on loopback answering a sample stamped 1e30 seconds: the drill is inconclusive
 * before injection, with nothing injected (an ArithmeticException escaped the drill, exit 2, no
 * verdict).
 */
class AbsurdPrometheusTest {

  @Test
  void anAbsurdTimestampIsAnInconclusiveDrillWithNothingInjected() {
    try (StubHttpServer prometheus = StubHttpServer.start()) {
      prometheus.respondJson(
          200,
          "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
              + "{\"metric\":{},\"value\":[1e30,\"0.001\"]}]}}");
      ScriptedDrill drill = new ScriptedDrill();
      drill.measureWith(
          new HttpPrometheusClient(prometheus.url(""), Duration.ofSeconds(5), Optional.empty()));
      ScriptedFault fault = drill.fault("burn");

      DrillResult result = drill.run();

      assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
      assertThat(result.reason())
          .startsWith(Drill.PREFLIGHT_UNMEASURED)
          .contains("has timestamp 1E+30 (expected seconds since 1970 before the year 10000)");
      assertThat(fault.applied()).isFalse();
      assertThat(drill.log()).noneMatch(entry -> entry.startsWith("inject"));
    }
  }
}
