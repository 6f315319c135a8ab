package dev.firedrill.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.firedrill.promql.model.LabelSet;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Counters integrate the rates over time, effects switching at their instants; scrapes fail as the
 * faults say.
 */
class LabMetricsTest {

  private static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");

  private static double value(List<LabMetrics.Sample> samples, LabelSet labels) {
    return samples.stream()
        .filter(s -> s.labels().equals(labels))
        .findFirst()
        .orElseThrow()
        .value();
  }

  private static LabelSet requests(String service, String route, String code) {
    return LabelSet.of(
        "__name__", "http_server_requests_total", "service", service, "route", route, "code", code);
  }

  @Test
  void countersAddTheRatesOfEachStretchOfTime() {
    LabMetrics metrics = new LabMetrics(LabModel.lab(), T0);
    metrics.start(new Effect.Failing("payments", 1, 503), T0.plusSeconds(10));
    List<LabMetrics.Sample> at15 = metrics.scrape("checkout", T0.plusSeconds(15)).orElseThrow();

    assertThat(value(at15, requests("checkout", "/checkout", "200"))).isCloseTo(200, within(1e-9));
    assertThat(value(at15, requests("checkout", "/checkout", "502"))).isCloseTo(100, within(1e-9));
    assertThat(value(at15, LabelSet.of("__name__", "orders_total", "result", "failed")))
        .isCloseTo(100, within(1e-9));
    assertThat(
            value(
                at15,
                LabelSet.of(
                    "__name__",
                    "http_server_request_duration_seconds_bucket",
                    "service",
                    "checkout",
                    "route",
                    "/checkout",
                    "le",
                    "+Inf")))
        .isCloseTo(300, within(1e-9));
  }

  @Test
  void anExporterDownFailsOnlyItsJobsScrapesAndAKilledServiceRestartsWithFreshCounters() {
    LabMetrics metrics = new LabMetrics(LabModel.lab(), T0);
    Effect exporter = new Effect.ExporterDown("payments");
    metrics.start(exporter, T0.plusSeconds(1));

    assertThat(metrics.scrape("payments", T0.plusSeconds(2))).isEqualTo(Optional.empty());
    assertThat(metrics.scrape("checkout", T0.plusSeconds(2))).isPresent();
    metrics.stop(exporter, T0.plusSeconds(3));
    Effect killed = new Effect.Down("payments");
    metrics.start(killed, T0.plusSeconds(3));
    assertThat(metrics.scrape("payments", T0.plusSeconds(4))).isEqualTo(Optional.empty());
    metrics.stop(killed, T0.plusSeconds(5));
    List<LabMetrics.Sample> restarted = metrics.scrape("payments", T0.plusSeconds(6)).orElseThrow();
    assertThat(value(restarted, requests("payments", "/pay", "200"))).isCloseTo(20, within(1e-9));
  }

  @Test
  void aJobTheModelDoesNotKnowAnswersWithNoSamples() {
    assertThat(new LabMetrics(LabModel.lab(), T0).scrape("load", T0.plusSeconds(1)))
        .isEqualTo(Optional.of(List.of()));
  }
}
