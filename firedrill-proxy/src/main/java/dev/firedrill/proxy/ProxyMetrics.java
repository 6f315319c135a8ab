package dev.firedrill.proxy;

import dev.firedrill.net.LoopbackHttpServer;
import dev.firedrill.net.Route;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.exporter.httpserver.HealthyHandler;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The proxy's own Prometheus registry: toxics in force, requests by toxic, toxics expired by their
 * ttl.
 */
public final class ProxyMetrics implements AutoCloseable {

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Gauge active =
      Gauge.builder()
          .name("firedrill_proxy_toxics_active")
          .help("Toxics in force on the proxy, by type.")
          .labelNames("type")
          .register(registry);
  private final Counter requests =
      Counter.builder()
          .name("firedrill_proxy_requests_total")
          .help(
              "Requests (HTTP mode) or connections (TCP mode) through the proxy, by the first toxic applied, or none.")
          .labelNames("toxic")
          .register(registry);
  private final Counter expired =
      Counter.builder()
          .name("firedrill_proxy_toxics_expired_total")
          .help("Toxics the proxy removed by itself when their ttl ended.")
          .register(registry);

  /**
   * The count of requests without a toxic, looked up once: the data path increments it per request.
   */
  private final io.prometheus.metrics.core.datapoints.CounterDataPoint untouched =
      requests.labelValues("none");

  private LoopbackHttpServer server;

  ProxyMetrics() {
    ToxicKind.TYPES.forEach(type -> active.labelValues(type).set(0));
  }

  public PrometheusRegistry registry() {
    return registry;
  }

  void active(String type, int count) {
    active.labelValues(type).set(count);
  }

  void request(String toxicType) {
    if (toxicType.equals("none")) {
      untouched.inc();
      return;
    }
    requests.labelValues(toxicType).inc();
  }

  void expired() {
    expired.inc();
  }

  /** Serves {@code /metrics} on {@code address}; returns the bound address. */
  InetSocketAddress serve(InetSocketAddress address) throws IOException {
    server =
        LoopbackHttpServer.builder("firedrill-proxy-metrics")
            .address(address)
            .threads(2)
            .route(Route.exact("/metrics").get(new MetricsHandler(registry)))
            .route(Route.exact("/-/healthy").get(new HealthyHandler()))
            .start();
    return server.address();
  }

  @Override
  public void close() {
    if (server != null) {
      server.close();
    }
  }
}
