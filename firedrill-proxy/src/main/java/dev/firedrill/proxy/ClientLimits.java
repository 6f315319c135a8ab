package dev.firedrill.proxy;

import dev.firedrill.net.LoopbackHttpServer;
import java.time.Duration;

/**
 * What the data port allows a client in HTTP mode, as {@link LoopbackHttpServer} allows on the
 * admin API: a request (head and body) begun must arrive whole within {@code request}, a kept-alive
 * connection may wait {@code idle} for its next one, and at most {@code connections} are open at
 * once (more are closed as they are accepted). Without them a client sending a byte a second held
 * its connection for ever: each byte restarted the idle timer.
 */
record ClientLimits(Duration request, Duration idle, int connections) {

  /**
   * One connection per thread that may serve one (a connection meeting a toxic has a thread of its
   * own): twice the admin API's, since the data port carries the service's own traffic.
   */
  static final int MAX_CONNECTIONS = Workers.MAX_THREADS;

  static final ClientLimits DEFAULT =
      new ClientLimits(
          Duration.ofSeconds(LoopbackHttpServer.REQUEST_SECONDS),
          Duration.ofSeconds(LoopbackHttpServer.IDLE_SECONDS),
          MAX_CONNECTIONS);

  ClientLimits {
    if (request.isNegative() || request.isZero() || idle.isNegative() || idle.isZero()) {
      throw new IllegalArgumentException("client limits must be positive");
    }
    if (connections < 1) {
      throw new IllegalArgumentException("at least one connection");
    }
  }
}
