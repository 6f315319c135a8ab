package dev.firedrill.lab.metrics;

import dev.firedrill.net.LoopbackHttpServer;
import dev.firedrill.net.Route;
import io.prometheus.metrics.exporter.httpserver.HealthyHandler;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.net.URI;

/**
 * {@code /metrics} (Prometheus Java client 1.x's handler) and {@code /-/healthy} for one registry
 * on one address.
 */
public final class MetricsEndpoint implements AutoCloseable {

  private final LoopbackHttpServer server;

  private MetricsEndpoint(LoopbackHttpServer server) {
    this.server = server;
  }

  /** Serves {@code registry} on {@code address} (port 0 picks a free one). */
  public static MetricsEndpoint start(PrometheusRegistry registry, InetSocketAddress address) {
    return new MetricsEndpoint(
        LoopbackHttpServer.builder("firedrill-lab-metrics")
            .address(address)
            .threads(2)
            .route(Route.exact("/metrics").get(new MetricsHandler(registry)))
            .route(Route.exact("/-/healthy").get(new HealthyHandler()))
            .startOrThrow("metrics endpoint"));
  }

  public InetSocketAddress address() {
    return server.address();
  }

  /** {@code http://HOST:PORT/metrics}. */
  public URI url() {
    return server.url().resolve("/metrics");
  }

  @Override
  public void close() {
    server.close();
  }
}
