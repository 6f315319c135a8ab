package dev.firedrill.lab.load;

import dev.firedrill.lab.metrics.LatencyBuckets;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The generator's own metrics, in a registry of its own: {@code
 * firedrill_load_requests_total{outcome}} and {@code
 * firedrill_load_request_duration_seconds{outcome}} (latency from the intended send time), every
 * outcome present at 0 from the start.
 */
public final class LoadMetrics {

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Counter requests;
  private final Histogram duration;

  public LoadMetrics() {
    requests =
        Counter.builder()
            .name("firedrill_load_requests") // exposed as firedrill_load_requests_total
            .help("Requests the load generator sent, by outcome.")
            .labelNames("outcome")
            .register(registry);
    duration =
        Histogram.builder()
            .name("firedrill_load_request_duration_seconds")
            .help(
                "Latency from each request's intended send time to its outcome (open loop: queueing counts).")
            .labelNames("outcome")
            .classicOnly()
            .classicUpperBounds(LatencyBuckets.seconds())
            .withoutExemplars()
            .register(registry);
    for (Outcome outcome : Outcome.values()) {
      requests.initLabelValues(outcome.label());
      duration.initLabelValues(outcome.label());
    }
  }

  public PrometheusRegistry registry() {
    return registry;
  }

  void record(Outcome outcome, long nanos) {
    requests.labelValues(outcome.label()).inc();
    duration.labelValues(outcome.label()).observe(nanos / 1e9);
  }
}
