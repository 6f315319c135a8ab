package dev.firedrill.marker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.engine.DrillObserver;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.Milestone;
import dev.firedrill.engine.Verdict;
import dev.firedrill.experiment.Hypothesis;
import dev.firedrill.experiment.MetricsExport;
import dev.firedrill.experiment.Missing;
import dev.firedrill.prometheus.QueryResult;
import dev.firedrill.testing.RealPrometheus;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.time.Clock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The real Prometheus scrapes firedrill's endpoint every second during a short drill of the real
 * engine: its samples are 1 while the fault is on, 0 after, and the series ends on a 0.
 */
class MetricsRealStackTest {

  private static final String SERIES =
      "chaos_experiment_active{experiment=\"prom-drill\",target=\"payments\","
          + "fault=\"http-latency\"}";

  /** A scrape's timestamp is when Prometheus sent it; the gauge is read a little later. */
  private static final Duration EDGE = Duration.ofMillis(250);

  @Test
  void prometheusReadsOneDuringTheFaultAndZeroAfterAndTheLastSampleIsZero() throws Exception {
    List<String> notes = new CopyOnWriteArrayList<>();
    MetricsSink sink =
        MetricsSink.open(
            "prom-drill",
            new MetricsExport(Optional.of("127.0.0.1:0"), Duration.ofSeconds(10), Optional.empty()),
            Clock.system(),
            notes::add);
    URI endpoint = sink.endpoint().orElseThrow();
    try (RealPrometheus prometheus =
        RealPrometheus.start(List.of("127.0.0.1:" + endpoint.getPort()))) {
      prometheus.awaitQuery(
          "up{job=\"" + RealPrometheus.JOB + "\"} == 1",
          r -> r instanceof QueryResult.Vector v && !v.samples().isEmpty(),
          Duration.ofSeconds(15));
      Instant[] window = new Instant[2];
      DrillObserver times =
          milestone -> {
            if (milestone instanceof Milestone.FaultInjected injected) {
              window[0] = injected.at();
            } else if (milestone instanceof Milestone.FaultReverted reverted) {
              window[1] = reverted.at();
            }
          };
      ScriptedDrill drill = new ScriptedDrill(Clock.system());
      drill.fault("latency", ScriptedDrill.HTTP_LATENCY);

      DrillResult result =
          drill
              .observer(DrillObserver.composite(List.of(sink, times)))
              .run(
                  drill
                      .experiment("prom-drill")
                      .steadyState(ScriptedDrill.steadyState(Duration.ofSeconds(1), Missing.FAIL))
                      .method(drill.method(Duration.ofSeconds(4)))
                      .hypothesis(new Hypothesis("errors stay under 1%", Duration.ofSeconds(5)))
                      .build());
      sink.close(Duration.ofSeconds(15));

      assertThat(result.verdict()).isEqualTo(Verdict.HELD);
      assertThat(notes).as("the 0 was scraped before the wait ran out").hasSize(1);
      QueryResult last =
          prometheus.awaitQuery(
              "last_over_time(" + SERIES + "[2m])",
              r -> r instanceof QueryResult.Vector v && !v.samples().isEmpty(),
              Duration.ofSeconds(5));
      assertThat(((QueryResult.Vector) last).samples())
          .singleElement()
          .satisfies(sample -> assertThat(sample.value()).as("the series' last sample").isZero());
      Instant mid = window[0].plus(Duration.between(window[0], window[1]).dividedBy(2));
      QueryResult during = prometheus.client().query(SERIES, mid);
      assertThat(((QueryResult.Vector) during).samples())
          .singleElement()
          .satisfies(
              sample ->
                  assertThat(sample.value()).as("instant query in the fault window").isEqualTo(1));

      QueryResult raw = prometheus.client().query(SERIES + "[2m]", Instant.now());
      List<QueryResult.Point> points = ((QueryResult.Matrix) raw).series().get(0).points();
      List<QueryResult.Point> on =
          points.stream()
              .filter(
                  p ->
                      p.at().isAfter(window[0].plus(EDGE))
                          && p.at().isBefore(window[1].minus(EDGE)))
              .toList();
      List<QueryResult.Point> after =
          points.stream().filter(p -> p.at().isAfter(window[1])).toList();
      assertThat(on)
          .as("samples in the fault window %s..%s of %s", window[0], window[1], points)
          .hasSizeGreaterThanOrEqualTo(2)
          .allSatisfy(p -> assertThat(p.value()).isEqualTo(1));
      assertThat(after)
          .as("samples after the rollback at %s of %s", window[1], points)
          .isNotEmpty()
          .allSatisfy(p -> assertThat(p.value()).isZero());
      assertThat(points.get(points.size() - 1).value()).isZero();
      // The next scrape fails and ends the series with a staleness marker: no value, rather than a
      // 1 that lingers.
      prometheus.awaitQuery(
          SERIES,
          r -> r instanceof QueryResult.Vector v && v.samples().isEmpty(),
          Duration.ofSeconds(5));
    }
  }
}
