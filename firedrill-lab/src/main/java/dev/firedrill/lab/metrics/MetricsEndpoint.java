package dev.firedrill.lab.metrics;

import dev.firedrill.net.HostPort;
import dev.firedrill.net.HttpServers;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;

/** {@code /metrics} for one registry on one address (Prometheus Java client 1.x {@link HTTPServer}). */
public final class MetricsEndpoint implements AutoCloseable {

  private final HTTPServer server;
  private final InetSocketAddress address;

  private MetricsEndpoint(HTTPServer server, InetSocketAddress address) {
    this.server = server;
    this.address = address;
  }

  /** Serves {@code registry} on {@code address} (port 0 picks a free one). */
  public static MetricsEndpoint start(PrometheusRegistry registry, InetSocketAddress address) {
    HttpServers.preferNoDelay();
    try {
      HTTPServer server = HTTPServer.builder()
          .inetAddress(address.getAddress())
          .port(address.getPort())
          .registry(registry)
          .buildAndStart();
      return new MetricsEndpoint(server, new InetSocketAddress(address.getAddress(), server.getPort()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serve metrics on " + HostPort.format(address) + ": " + e.getMessage(), e);
    }
  }

  public InetSocketAddress address() {
    return address;
  }

  /** {@code http://HOST:PORT/metrics}. */
  public URI url() {
    return URI.create("http://" + HostPort.format(address) + "/metrics");
  }

  @Override
  public void close() {
    server.close();
  }
}
