package dev.firedrill.proxy;

import dev.firedrill.time.Clock;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Optional;

/**
 * A reverse proxy that injects toxics (latency, error, reset, timeout, bandwidth) into a share of
 * the traffic, each removed by the proxy itself when its ttl ends. Started in-process by tests and
 * by {@code firedrill proxy}.
 */
public final class FaultProxy implements AutoCloseable {

  private final ProxyConfig config;
  private final ProxyMetrics metrics = new ProxyMetrics();
  private final ToxicTable toxics;
  private final UpstreamPool pool;
  private Listener listener; // TCP mode
  private HttpListener loop; // HTTP mode
  private AdminServer admin;
  private InetSocketAddress metricsAddress;

  private FaultProxy(ProxyConfig config, Clock clock) {
    this.config = config;
    this.toxics = new ToxicTable(metrics, clock::nanoTime);
    this.pool = new UpstreamPool(config.upstreamAddress());
  }

  /** Binds the listen, admin and metrics addresses (port 0 picks a free one) and starts serving. */
  public static FaultProxy start(ProxyConfig config) throws IOException {
    return start(config, Clock.system());
  }

  public static FaultProxy start(ProxyConfig config, Clock clock) throws IOException {
    return start(config, clock, ClientLimits.DEFAULT);
  }

  /** With other limits on the data port's clients (tests: short timeouts, few connections). */
  static FaultProxy start(ProxyConfig config, Clock clock, ClientLimits limits) throws IOException {
    FaultProxy proxy = new FaultProxy(config, clock);
    try {
      String name = "firedrill-proxy-" + config.name();
      if (config.mode() == ProxyConfig.Mode.HTTP) {
        HttpProxyHandler handler =
            new HttpProxyHandler(
                config.upstream(), proxy.pool, proxy.toxics, proxy.metrics, clock, limits);
        proxy.loop =
            new HttpListener(
                config.listen(),
                name,
                config.upstreamAddress(),
                new Forwarding(config.upstream()),
                handler,
                proxy.toxics,
                proxy.metrics,
                limits);
      } else {
        proxy.listener =
            new Listener(
                config.listen(),
                name,
                new TcpProxyHandler(config.upstreamAddress(), proxy.toxics, proxy.metrics, clock));
      }
      proxy.admin = new AdminServer(config.admin(), proxy, config.adminToken());
      if (config.metrics().isPresent()) {
        proxy.metricsAddress = proxy.metrics.serve(config.metrics().get());
      }
    } catch (IOException | RuntimeException e) {
      proxy.close();
      throw e;
    }
    if (proxy.loop != null) {
      proxy.loop.start();
    } else {
      proxy.listener.start();
    }
    return proxy;
  }

  public String name() {
    return config.name();
  }

  public ProxyConfig.Mode mode() {
    return config.mode();
  }

  public URI upstream() {
    return config.upstream();
  }

  public InetSocketAddress listenAddress() {
    return loop != null ? loop.address() : listener.address();
  }

  public InetSocketAddress adminAddress() {
    return admin.address();
  }

  /** The admin API's base URL, such as {@code http://127.0.0.1:8474}. */
  public URI adminUrl() {
    return URI.create("http://" + AdminServer.hostPort(adminAddress()));
  }

  /** The proxy's own URL, for clients. */
  public URI url() {
    return URI.create("http://" + AdminServer.hostPort(listenAddress()));
  }

  public Optional<InetSocketAddress> metricsAddress() {
    return Optional.ofNullable(metricsAddress);
  }

  /** How many connections to the upstream the proxy opened (HTTP mode; keep-alive reuses them). */
  long upstreamConnectionsOpened() {
    return pool.opened() + (loop != null ? loop.upstreamConnectionsOpened() : 0);
  }

  /** Client connections open on the data port now (HTTP mode; 0 in TCP mode). */
  int clients() {
    return loop != null ? loop.clients() : 0;
  }

  public ToxicTable toxics() {
    return toxics;
  }

  public ProxyMetrics metrics() {
    return metrics;
  }

  /** Stops serving, releases held requests, closes every connection; does not wait. */
  @Override
  public void close() {
    if (listener != null) {
      listener.close();
    }
    if (loop != null) {
      loop.close();
    }
    if (admin != null) {
      admin.close();
    }
    toxics.close();
    pool.close();
    metrics.close();
  }
}
