package dev.firedrill.lab.service;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.firedrill.lab.metrics.MetricsEndpoint;
import dev.firedrill.net.HostPort;
import dev.firedrill.net.HttpServers;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A demo service's HTTP server, its handler threads and its metrics endpoint, started together
 * (nothing left behind when one part fails to start) and stopped together.
 */
final class ServiceHost implements AutoCloseable {

  private final HttpServer server;
  private final ExecutorService handlers;
  private final MetricsEndpoint metrics;

  private ServiceHost(HttpServer server, ExecutorService handlers, MetricsEndpoint metrics) {
    this.server = server;
    this.handlers = handlers;
    this.metrics = metrics;
  }

  static ServiceHost start(String name, InetSocketAddress listen, InetSocketAddress metricsAddress,
      PrometheusRegistry registry, int threads, HttpHandler handler) throws IOException {
    ExecutorService handlers = Executors.newFixedThreadPool(threads, Threads.named(name + "-http"));
    MetricsEndpoint endpoint = null;
    try {
      HttpServer server = HttpServers.create(listen);
      server.createContext("/", handler);
      server.setExecutor(handlers);
      endpoint = MetricsEndpoint.start(registry, metricsAddress);
      server.start();
      return new ServiceHost(server, handlers, endpoint);
    } catch (IOException | RuntimeException e) {
      if (endpoint != null) {
        endpoint.close();
      }
      Threads.stop(handlers);
      throw e;
    }
  }

  InetSocketAddress address() {
    return server.getAddress();
  }

  URI url() {
    return URI.create("http://" + HostPort.format(address()));
  }

  InetSocketAddress metricsAddress() {
    return metrics.address();
  }

  URI metricsUrl() {
    return metrics.url();
  }

  @Override
  public void close() {
    server.stop(0);
    Threads.stop(handlers);
    metrics.close();
  }
}
