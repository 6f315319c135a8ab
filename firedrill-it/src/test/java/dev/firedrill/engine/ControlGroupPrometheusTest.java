package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.experiment.Abort;
import dev.firedrill.experiment.Control;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.Missing;
import dev.firedrill.experiment.Sli;
import dev.firedrill.experiment.SteadyState;
import dev.firedrill.experiment.Targets;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import dev.firedrill.testing.RealPrometheus;
import dev.firedrill.testing.Results;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.testing.StubHttpServer;
import dev.firedrill.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Control queries over series a real Prometheus scraped: four pods, two of them selected. A pod
 * named {@code checkoutXv2-a} beside the selected {@code checkout.v2-a} shows the names are matched
 * literally (an unescaped dot would pull it into the experiment group), and the regex for "nothing
 * selected" is one Prometheus accepts.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ControlGroupPrometheusTest {

  private static final String METRICS =
      """
      # TYPE checkout_p95_seconds gauge
      checkout_p95_seconds{pod="checkout.v2-a"} 0.45
      checkout_p95_seconds{pod="checkout.v2-b"} 0.44
      checkout_p95_seconds{pod="checkout.v2-c"} 0.30
      checkout_p95_seconds{pod="checkoutXv2-a"} 0.32
      """;

  private static final List<String> SELECTED = List.of("checkout.v2-a", "checkout.v2-b");

  private static Control control(String query, OptionalDouble maxDelta, OptionalDouble ratio) {
    return new Control(query, OptionalDouble.empty(), maxDelta, ratio, ratio);
  }

  private static Experiment experiment() {
    Sli p95 =
        new Sli(
            "p95",
            "max(checkout_p95_seconds{pod=~\"{{ targets }}\"})",
            OptionalDouble.empty(),
            OptionalDouble.empty(),
            Missing.FAIL,
            Optional.of(
                control(
                    "max(checkout_p95_seconds{pod!~\"{{ targets }}\"})",
                    OptionalDouble.of(0.05),
                    OptionalDouble.empty())));
    Sli pods =
        new Sli(
            "pods",
            "count(checkout_p95_seconds{pod=~\"{{ targets }}\"})",
            OptionalDouble.empty(),
            OptionalDouble.empty(),
            Missing.FAIL,
            Optional.of(
                control(
                    "count(checkout_p95_seconds{pod!~\"{{ targets }}\"})",
                    OptionalDouble.empty(),
                    OptionalDouble.of(1))));
    return new ScriptedDrill()
        .experiment()
        .steadyState(new SteadyState(Duration.ofSeconds(5), List.of(p95, pods)))
        .abort(new Abort(List.of(), Optional.empty(), Abort.DEFAULT_PROBE_ERRORS, Optional.empty()))
        .build();
  }

  @Test
  void theControlQueryEvaluatesOverRealSeries() throws Exception {
    try (StubHttpServer exporter =
            StubHttpServer.start().respond(200, "text/plain; version=0.0.4", METRICS);
        RealPrometheus prometheus = RealPrometheus.start(List.of("127.0.0.1:" + exporter.port()))) {
      prometheus.awaitQuery(
          "count(checkout_p95_seconds)", Results.valueNear(4, 0), Duration.ofSeconds(20));
      PrometheusMeasurer measurer =
          new PrometheusMeasurer(prometheus.client(), experiment(), Clock.system());

      // Before injection both queries read the whole group: the same 4 pods, delta 0.
      Measurement before = measurer.measure(Targets.BEFORE_INJECTION);
      assertThat(before.text())
          .isEqualTo(
              "p95 0.45 (control 0.45) delta <= 0.05 vs control,"
                  + " pods 4 (control 4) ratio 1..1 vs control");
      assertThat(before.withinSteadyState()).isTrue();

      // After: the two selected pods against the other two, checkoutXv2-a among the control.
      Measurement after = measurer.measure(Targets.of(SELECTED));
      assertThat(after.sli("p95").orElseThrow())
          .isEqualTo(
              new Reading(
                  "p95",
                  Reading.Status.BREACH,
                  OptionalDouble.of(0.45),
                  "delta <= 0.05 vs control",
                  "",
                  OptionalDouble.of(0.32)));
      assertThat(after.sli("pods").orElseThrow().text())
          .isEqualTo("pods 2 (control 2) ratio 1..1 vs control");

      // Nothing selected: the experiment group is empty, the control group is every pod.
      Measurement none = measurer.measure(Targets.of(List.of()));
      assertThat(none.sli("pods").orElseThrow().status()).isEqualTo(Reading.Status.NO_DATA);
      assertThat(none.sli("pods").orElseThrow().detail())
          .isEqualTo("empty result for count(checkout_p95_seconds{pod=~\"[^\\\\s\\\\S]\"})");
      assertThat(
              Results.value(
                  prometheus.client().query("count(checkout_p95_seconds{pod!~\"[^\\\\s\\\\S]\"})")))
          .hasValue(4);
    }
  }
}
