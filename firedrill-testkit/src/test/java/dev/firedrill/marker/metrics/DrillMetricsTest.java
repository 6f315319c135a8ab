package dev.firedrill.marker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.engine.DrillObserver;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.Milestone;
import dev.firedrill.engine.Verdict;
import dev.firedrill.experiment.Hypothesis;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.testing.ScriptedFault;
import dev.firedrill.testing.ScriptedPrometheus;
import dev.firedrill.time.VirtualClock;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The gauges' values through drills of the real engine on a virtual clock. */
class DrillMetricsTest {

  private static final Map<String, String> ACTIVE =
      Map.of("experiment", "unit", "target", "payments", "fault", "http-latency");

  private final VirtualClock clock = new VirtualClock(ScriptedDrill.START);
  private final ScriptedDrill drill = new ScriptedDrill(clock);
  private final DrillMetrics metrics = new DrillMetrics("unit", () -> {});

  /** After each milestone: its kind and the active gauge's value then ("-" for no series). */
  private final List<String> trace = new ArrayList<>();

  private DrillObserver observer() {
    return milestone -> {
      metrics.apply(milestone);
      OptionalDouble active = gauge(DrillMetrics.ACTIVE, ACTIVE);
      trace.add(
          milestone.getClass().getSimpleName()
              + " "
              + (active.isPresent() ? (int) active.getAsDouble() : "-"));
    };
  }

  private double value(String name, Map<String, String> labels) {
    OptionalDouble value = gauge(name, labels);
    assertThat(value).as("%s%s", name, labels).isPresent();
    return value.getAsDouble();
  }

  /**
   * The value of the gauge series with exactly these labels, or empty when there is no such series.
   */
  private OptionalDouble gauge(String name, Map<String, String> labels) {
    for (MetricSnapshot snapshot : metrics.registry().scrape()) {
      if (snapshot.getMetadata().getPrometheusName().equals(name)
          && snapshot instanceof GaugeSnapshot gauge) {
        for (GaugeSnapshot.GaugeDataPointSnapshot point : gauge.getDataPoints()) {
          if (point.getLabels().size() == labels.size()
              && labels.entrySet().stream()
                  .allMatch(e -> e.getValue().equals(point.getLabels().get(e.getKey())))) {
            return OptionalDouble.of(point.getValue());
          }
        }
      }
    }
    return OptionalDouble.empty();
  }

  /** A latency fault on payments: the series {@link #ACTIVE}. */
  private ScriptedFault latency() {
    return drill.fault("latency", ScriptedDrill.HTTP_LATENCY);
  }

  /**
   * Drill {@code unit}: measured every 5 s, the faults on for {@code duration}, {@code recovery} to
   * recover.
   */
  private DrillResult run(Duration duration, Duration recovery, DrillObserver observer) {
    return drill
        .observer(observer)
        .run(
            drill
                .experiment("unit")
                .method(drill.method(duration))
                .hypothesis(new Hypothesis("errors stay under 1%", recovery))
                .build());
  }

  @Test
  void activeIsOneFromInjectionToRollbackThenZero() {
    latency();
    run(Duration.ofSeconds(10), Duration.ofSeconds(10), observer());

    assertThat(trace)
        .containsExactly(
            "Planned -",
            "DrillStarted -",
            "PhaseStarted -",
            "Measured -",
            "PhaseStarted -",
            "FaultInjecting -",
            "FaultInjected 1",
            "PhaseStarted 1",
            "Measured 1",
            "Measured 1",
            "PhaseStarted 1",
            "FaultReverting 1",
            "FaultReverted 0",
            "RolledBack 0",
            "PhaseStarted 0",
            "Measured 0",
            "Recovered 0",
            "DrillFinished 0");
    assertThat(metrics.everOn()).isTrue();
    assertThat(metrics.allOff()).isTrue();
  }

  @Test
  void theEndStateNamesTheVerdictThePhaseTheReadingAndTheStart() {
    latency();
    run(Duration.ofSeconds(10), Duration.ofSeconds(10), observer());

    assertThat(value("chaos_experiment_verdict", Map.of("experiment", "unit", "verdict", "held")))
        .isEqualTo(1);
    assertThat(
            gauge("chaos_experiment_verdict", Map.of("experiment", "unit", "verdict", "aborted")))
        .isEmpty();
    assertThat(value("chaos_experiment_phase", Map.of("experiment", "unit", "phase", "verdict")))
        .isEqualTo(1);
    assertThat(value("chaos_experiment_phase", Map.of("experiment", "unit", "phase", "during")))
        .isZero();
    assertThat(
            value("chaos_experiment_reading", Map.of("experiment", "unit", "name", "error_ratio")))
        .isEqualTo(0.001);
    assertThat(value("chaos_experiment_start_timestamp_seconds", Map.of("experiment", "unit")))
        .isEqualTo(clock.now().minusSeconds(10).getEpochSecond());
  }

  @Test
  void thePhaseGaugeFollowsTheDrillWithExactlyOnePhaseAtOne() {
    List<String> current = new ArrayList<>();
    latency();
    DrillObserver phases =
        milestone -> {
          metrics.apply(milestone);
          if (milestone instanceof Milestone.PhaseStarted
              || milestone instanceof Milestone.DrillFinished) {
            List<String> ones = new ArrayList<>();
            for (String phase :
                List.of(
                    "plan",
                    "before",
                    "inject",
                    "during",
                    "abort",
                    "rollback",
                    "after",
                    "detect",
                    "verdict")) {
              if (value("chaos_experiment_phase", Map.of("experiment", "unit", "phase", phase))
                  == 1) {
                ones.add(phase);
              }
            }
            current.add(String.join("+", ones));
          }
        };
    run(Duration.ofSeconds(10), Duration.ofSeconds(10), phases);

    assertThat(current)
        .containsExactly("before", "inject", "during", "rollback", "after", "verdict");
  }

  @Test
  void aReadingWithoutDataIsNaN() {
    latency();
    drill
        .prometheus()
        .answer(
            ScriptedDrill.ERROR_RATIO,
            t -> t >= 5 ? ScriptedPrometheus.noData() : ScriptedPrometheus.value(0.001));
    run(Duration.ofSeconds(10), Duration.ofSeconds(5), observer());

    assertThat(
            value("chaos_experiment_reading", Map.of("experiment", "unit", "name", "error_ratio")))
        .isNaN();
    assertThat(new String(metrics.text(), StandardCharsets.UTF_8))
        .contains("chaos_experiment_reading{experiment=\"unit\",name=\"error_ratio\"} NaN");
  }

  @Test
  void anAbortedDrillEndsAtZeroWithTheVerdictAborted() {
    latency();
    drill
        .prometheus()
        .answer(ScriptedDrill.ERROR_RATIO, t -> ScriptedPrometheus.value(t >= 5 ? 0.2 : 0.001));
    DrillResult result = run(Duration.ofSeconds(30), Duration.ofSeconds(10), observer());

    assertThat(result.verdict()).isEqualTo(Verdict.ABORTED);
    assertThat(trace).contains("Aborted 1", "FaultReverted 0");
    assertThat(value(DrillMetrics.ACTIVE, ACTIVE)).isZero();
    assertThat(
            value("chaos_experiment_verdict", Map.of("experiment", "unit", "verdict", "aborted")))
        .isEqualTo(1);
  }

  @Test
  void aFailedRevertLeavesTheGaugeAtOne() {
    latency().failsToRevert(3);
    run(Duration.ofSeconds(10), Duration.ofSeconds(5), observer());

    assertThat(trace).contains("FaultReverted 1", "DrillFinished 1");
    assertThat(metrics.allOff()).isFalse();
  }

  @Test
  void aFailedInjectionNeverShowsOne() {
    latency().failsToInject();
    run(Duration.ofSeconds(10), Duration.ofSeconds(5), observer());

    assertThat(trace)
        .contains("FaultInjected -", "FaultReverted 0")
        .noneMatch(line -> line.endsWith(" 1"));
    assertThat(metrics.everOn()).isFalse();
  }

  @Test
  void twoFaultsOnOneSeriesKeepItAtOneUntilBothAreReverted() {
    latency();
    latency();
    run(Duration.ofSeconds(10), Duration.ofSeconds(5), observer());

    // The rollback reverts the second fault first: the first still holds the series at 1.
    assertThat(trace).containsSubsequence("FaultReverted 1", "FaultReverted 0");
  }

  @Test
  void theTargetNamesThePodsTheFaultSelectedFromInjectionToRollback() {
    latency().selects("checkout-7d9f-a", "checkout-7d9f-b");
    Map<String, String> pods =
        Map.of(
            "experiment",
            "unit",
            "target",
            "payments: checkout-7d9f-a,checkout-7d9f-b",
            "fault",
            "http-latency");
    List<String> values = new ArrayList<>();
    run(
        Duration.ofSeconds(10),
        Duration.ofSeconds(10),
        milestone -> {
          metrics.apply(milestone);
          if (milestone instanceof Milestone.FaultInjected
              || milestone instanceof Milestone.FaultReverted) {
            values.add(
                milestone.getClass().getSimpleName()
                    + " "
                    + (int) value(DrillMetrics.ACTIVE, pods));
          }
        });

    assertThat(values).containsExactly("FaultInjected 1", "FaultReverted 0");
    // The namespace alone never had a series: one series per injection, named once.
    assertThat(gauge(DrillMetrics.ACTIVE, ACTIVE)).isEmpty();
  }
}
