package dev.firedrill.lab.service;

import dev.firedrill.lab.metrics.MetricsEndpoint;
import dev.firedrill.net.LoopbackHttpServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.function.Consumer;

/**
 * A demo service's HTTP server and its metrics endpoint, started together (nothing left behind when
 * one part fails to start) and stopped together.
 */
final class ServiceHost implements AutoCloseable {

  /**
   * Requests that may wait for a handler thread before the service answers 503: above the load
   * generator's default of 1000 in flight, so only a deliberate overload meets the limit.
   */
  private static final int QUEUE = 4096;

  private final LoopbackHttpServer server;
  private final MetricsEndpoint metrics;

  private ServiceHost(LoopbackHttpServer server, MetricsEndpoint metrics) {
    this.server = server;
    this.metrics = metrics;
  }

  /** {@code routes} adds the service's routes and its not-found and wrong-method answers. */
  static ServiceHost start(
      String name,
      InetSocketAddress listen,
      InetSocketAddress metricsAddress,
      PrometheusRegistry registry,
      int threads,
      Consumer<LoopbackHttpServer.Builder> routes)
      throws IOException {
    LoopbackHttpServer.Builder builder =
        LoopbackHttpServer.builder(name + "-http").address(listen).threads(threads).queue(QUEUE);
    routes.accept(builder);
    MetricsEndpoint endpoint = MetricsEndpoint.start(registry, metricsAddress);
    try {
      return new ServiceHost(builder.start(), endpoint);
    } catch (IOException | RuntimeException e) {
      endpoint.close();
      throw e;
    }
  }

  InetSocketAddress address() {
    return server.address();
  }

  URI url() {
    return server.url();
  }

  InetSocketAddress metricsAddress() {
    return metrics.address();
  }

  URI metricsUrl() {
    return metrics.url();
  }

  @Override
  public void close() {
    server.close();
    metrics.close();
  }
}
