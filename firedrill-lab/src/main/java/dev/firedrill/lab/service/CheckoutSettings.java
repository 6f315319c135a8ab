package dev.firedrill.lab.service;

import dev.firedrill.net.HostPort;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * How to run checkout.
 *
 * @param listen where {@code POST /checkout} is served
 * @param metrics where {@code /metrics} is served
 * @param payments payments' base URL ({@code http://127.0.0.1:PORT}); {@code /pay} is appended
 * @param timeout the client timeout of each call to payments (there is one retry)
 * @param threads how many checkouts are served at once (each holds a thread while it calls
 *     payments)
 */
public record CheckoutSettings(
    InetSocketAddress listen,
    InetSocketAddress metrics,
    URI payments,
    Duration timeout,
    int threads) {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(300);
  public static final int DEFAULT_THREADS = 64;

  public CheckoutSettings {
    Objects.requireNonNull(listen, "listen");
    Objects.requireNonNull(metrics, "metrics");
    if (payments == null
        || !("http".equals(payments.getScheme()) || "https".equals(payments.getScheme()))
        || payments.getHost() == null) {
      throw new IllegalArgumentException(
          "payments URL \"" + payments + "\" is not usable (expected http://HOST:PORT)");
    }
    if (timeout == null
        || timeout.isNegative()
        || timeout.isZero()
        || timeout.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new IllegalArgumentException(
          "checkout timeout " + timeout + " is not usable (expected more than 0, at most 1m)");
    }
    if (threads < 1 || threads > 10_000) {
      throw new IllegalArgumentException(
          "checkout threads " + threads + " is not usable (expected 1 to 10000)");
    }
  }

  /** 127.0.0.1 on free ports, a 300 ms timeout, 64 threads. */
  public static CheckoutSettings defaults(URI payments) {
    return new CheckoutSettings(
        HostPort.loopbackAnyPort(),
        HostPort.loopbackAnyPort(),
        payments,
        DEFAULT_TIMEOUT,
        DEFAULT_THREADS);
  }

  public CheckoutSettings withListen(InetSocketAddress address) {
    return new CheckoutSettings(address, metrics, payments, timeout, threads);
  }

  public CheckoutSettings withMetrics(InetSocketAddress address) {
    return new CheckoutSettings(listen, address, payments, timeout, threads);
  }

  public CheckoutSettings withTimeout(Duration value) {
    return new CheckoutSettings(listen, metrics, payments, value, threads);
  }

  public CheckoutSettings withThreads(int value) {
    return new CheckoutSettings(listen, metrics, payments, timeout, value);
  }

  /** {@code <payments>/pay}. */
  URI payUrl() {
    String base = payments.toString();
    return URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/pay");
  }
}
