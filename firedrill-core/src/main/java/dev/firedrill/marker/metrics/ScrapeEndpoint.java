package dev.firedrill.marker.metrics;

import dev.firedrill.net.HostPort;
import dev.firedrill.net.LoopbackHttpServer;
import dev.firedrill.net.Route;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.exporter.httpserver.HealthyHandler;
import io.prometheus.metrics.exporter.httpserver.HttpErrorHandlingPolicy;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;

/**
 * firedrill's own {@code /metrics} (the Prometheus Java client's handler) and {@code /-/healthy}
 * for the drill's registry; on close it stays up until a scrape has read every fault's 0, or the
 * wait runs out.
 */
final class ScrapeEndpoint {

  private final LoopbackHttpServer server;
  private final ScrapeWatch watch;
  private final URI url;

  private ScrapeEndpoint(LoopbackHttpServer server, ScrapeWatch watch) {
    this.server = server;
    this.watch = watch;
    this.url = server.url().resolve("/metrics");
  }

  /** Listens on {@code address}; {@link MetricsEndpointException} when it cannot. */
  static ScrapeEndpoint start(
      InetSocketAddress address,
      PrometheusRegistry registry,
      ScrapeWatch watch,
      ScrapeRequests requests) {
    HttpErrorHandlingPolicy errors =
        HttpErrorHandlingPolicy.builder().errorReporter(requests::markFailed).build();
    try {
      LoopbackHttpServer server =
          LoopbackHttpServer.builder("firedrill-metrics-http")
              .address(address)
              .threads(2)
              .route(
                  Route.exact("/metrics")
                      .get(
                          requests.watching(
                              new MetricsHandler(PrometheusProperties.get(), registry, errors))))
              .route(Route.exact("/-/healthy").get(new HealthyHandler()))
              .start();
      return new ScrapeEndpoint(server, watch);
    } catch (IOException e) {
      throw new MetricsEndpointException(
          HostPort.format(address),
          e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(),
          e);
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
