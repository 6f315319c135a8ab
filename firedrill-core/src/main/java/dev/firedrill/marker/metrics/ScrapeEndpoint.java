package dev.firedrill.marker.metrics;

import dev.firedrill.net.HostPort;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.exporter.httpserver.HttpErrorHandlingPolicy;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;

/**
 * firedrill's own {@code /metrics} (the Prometheus Java client's {@link HTTPServer}) for the drill's
 * registry; on close it stays up until a scrape has read every fault's 0, or the wait runs out.
 */
final class ScrapeEndpoint {

  private final HTTPServer server;
  private final ScrapeWatch watch;
  private final URI url;

  private ScrapeEndpoint(HTTPServer server, ScrapeWatch watch, URI url) {
    this.server = server;
    this.watch = watch;
    this.url = url;
  }

  /** Listens on {@code address}; {@link MetricsEndpointException} when it cannot. */
  static ScrapeEndpoint start(InetSocketAddress address, PrometheusRegistry registry, ScrapeWatch watch,
      ScrapeExecutor executor) {
    try {
      HTTPServer server = HTTPServer.builder()
          .inetAddress(address.getAddress())
          .port(address.getPort())
          .registry(registry)
          .executorService(executor)
          .errorHandlingPolicy(HttpErrorHandlingPolicy.builder().errorReporter(executor::markFailed).build())
          .buildAndStart();
      InetSocketAddress bound = new InetSocketAddress(address.getAddress(), server.getPort());
      return new ScrapeEndpoint(server, watch, URI.create("http://" + HostPort.format(bound) + "/metrics"));
    } catch (IOException e) {
      executor.shutdownNow();
      throw new MetricsEndpointException(HostPort.format(address),
          e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(), e);
    }
  }

  URI url() {
    return url;
  }

  /**
   * Waits up to {@code wait} for a scrape of the 0 when {@code zeroToDeliver}, then stops serving.
   * Returns whether the 0 was delivered (true when there was none to deliver).
   */
  boolean close(boolean zeroToDeliver, Duration wait) {
    try {
      return !zeroToDeliver || watch.awaitZeroScraped(wait);
    } finally {
      server.close();
    }
  }
}
