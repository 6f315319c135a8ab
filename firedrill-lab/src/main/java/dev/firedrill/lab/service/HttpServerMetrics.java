package dev.firedrill.lab.service;

import dev.firedrill.lab.metrics.LatencyBuckets;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;

/**
 * {@code http_server_requests_total{service,route,code}} and {@code
 * http_server_request_duration_seconds{service,route}} in a registry of the service's own.
 */
final class HttpServerMetrics {

  /**
   * Requests to paths a service does not serve share this route label, so cardinality stays
   * bounded.
   */
  static final String OTHER_ROUTE = "other";

  private final String service;
  private final Counter requests;
  private final Histogram duration;

  HttpServerMetrics(
      PrometheusRegistry registry, String service, String route, List<Integer> knownCodes) {
    this.service = service;
    // The 1.x client adds _total to a counter's samples: this is exposed as
    // http_server_requests_total.
    this.requests =
        Counter.builder()
            .name("http_server_requests")
            .help("HTTP requests served, by route and status code.")
            .labelNames("service", "route", "code")
            .register(registry);
    this.duration =
        Histogram.builder()
            .name("http_server_request_duration_seconds")
            .help("Time from receiving a request to sending its response.")
            .labelNames("service", "route")
            .classicOnly()
            .classicUpperBounds(LatencyBuckets.seconds())
            .withoutExemplars()
            .register(registry);
    for (int code : knownCodes) {
      requests.initLabelValues(service, route, Integer.toString(code));
    }
    duration.initLabelValues(service, route);
  }

  void record(String route, int code, long nanos) {
    requests.labelValues(service, route, Integer.toString(code)).inc();
    duration.labelValues(service, route).observe(nanos / 1e9);
  }
}
