package dev.firedrill.marker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.engine.DrillObserver;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.Milestone;
import dev.firedrill.engine.Phase;
import dev.firedrill.engine.Verdict;
import dev.firedrill.experiment.Hypothesis;
import dev.firedrill.experiment.MetricsExport;
import dev.firedrill.experiment.Missing;
import dev.firedrill.testing.RealPushgateway;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.testing.ScriptedPrometheus;
import dev.firedrill.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pushes to the real prometheus-pushgateway: the 1 is there during the drill and no group is left
 * after.
 */
class PushgatewayRealStackTest {

  private RealPushgateway pushgateway;
  private final List<String> notes = new CopyOnWriteArrayList<>();
  private final ScriptedDrill drill = new ScriptedDrill(Clock.system());

  @BeforeEach
  void start() {
    pushgateway = RealPushgateway.start();
  }

  @AfterEach
  void stop() {
    if (pushgateway != null) {
      pushgateway.close();
    }
  }

  private static String activeLine(String id, int value) {
    return "chaos_experiment_active{experiment=\""
        + id
        + "\",fault=\"http-latency\",instance=\"\",job=\"firedrill\","
        + "target=\"payments\"} "
        + value;
  }

  /**
   * At the first measurement with the fault on: what the Pushgateway's /metrics said (it gets a few
   * seconds).
   */
  private DrillObserver lookDuring(String id, StringBuilder seen) {
    return milestone -> {
      if (milestone instanceof Milestone.Measured measured
          && measured.phase() == Phase.DURING
          && seen.isEmpty()) {
        Clock real = Clock.system();
        long deadline = real.nanoTime() + Duration.ofSeconds(3).toNanos();
        String text = pushgateway.metricsText();
        try {
          while (!text.contains(activeLine(id, 1)) && real.nanoTime() < deadline) {
            real.sleep(Duration.ofMillis(100));
            text = pushgateway.metricsText();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        seen.append(text);
      }
    };
  }

  private DrillResult run(String id, StringBuilder seen) {
    MetricsSink sink =
        MetricsSink.open(
            id,
            new MetricsExport(
                Optional.empty(), Duration.ofSeconds(1), Optional.of(pushgateway.url())),
            Clock.system(),
            notes::add);
    drill.fault("latency", ScriptedDrill.HTTP_LATENCY);
    DrillResult result =
        drill
            .observer(DrillObserver.composite(List.of(sink, lookDuring(id, seen))))
            .run(
                drill
                    .experiment(id)
                    .steadyState(ScriptedDrill.steadyState(Duration.ofMillis(500), Missing.FAIL))
                    .method(drill.method(Duration.ofSeconds(2)))
                    .hypothesis(new Hypothesis("errors stay under 1%", Duration.ofSeconds(3)))
                    .build());
    assertThat(pushgateway.groups())
        .as("groups before close")
        .contains(Map.of("experiment", id, "job", "firedrill"));
    sink.close(Duration.ofSeconds(10));
    return result;
  }

  @Test
  void aHeldDrillShowsOneWhileTheFaultIsOnAndLeavesNoGroup() {
    StringBuilder seen = new StringBuilder();

    DrillResult result = run("pg-held", seen);

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    assertThat(seen.toString()).contains(activeLine("pg-held", 1));
    assertThat(pushgateway.groups()).isEmpty();
    assertThat(pushgateway.metricsText()).doesNotContain("chaos_experiment");
    assertThat(notes).as(pushgateway.logTail(20)).isEmpty();
  }

  @Test
  void anAbortedDrillLeavesNoGroupEither() {
    drill
        .prometheus()
        .answer(ScriptedDrill.ERROR_RATIO, t -> ScriptedPrometheus.value(t >= 0.9 ? 0.2 : 0.001));
    StringBuilder seen = new StringBuilder();

    DrillResult result = run("pg-aborted", seen);

    assertThat(result.verdict()).isEqualTo(Verdict.ABORTED);
    assertThat(seen.toString()).contains(activeLine("pg-aborted", 1));
    assertThat(pushgateway.groups()).isEmpty();
    assertThat(notes).as(pushgateway.logTail(20)).isEmpty();
  }
}
