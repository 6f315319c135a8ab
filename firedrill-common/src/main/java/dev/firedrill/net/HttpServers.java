package dev.firedrill.net;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * {@link HttpServer}s without the 40 ms stall per keep-alive response.
 *
 * <p>The JDK's server writes a response's headers and its body as two segments and leaves Nagle's
 * algorithm on unless {@code sun.net.httpserver.nodelay=true}: the body then waits for the client's
 * delayed ACK of the headers, about 40 ms on Linux, on every request after a connection's first.
 * The JDK reads the property once, when its first server starts, so it is set here (unless the user
 * set it) before the lab creates any server; a server created earlier in the same JVM by other code
 * keeps the default.
 */
public final class HttpServers {

  public static final String NO_DELAY = "sun.net.httpserver.nodelay";

  private HttpServers() {}

  /** Turns Nagle's algorithm off for the JDK's HTTP servers, unless the property is set already. */
  public static void preferNoDelay() {
    if (System.getProperty(NO_DELAY) == null) {
      System.setProperty(NO_DELAY, "true");
    }
  }

  /** A server bound to {@code address} with a listen backlog of 1024, not started. */
  public static HttpServer create(InetSocketAddress address) throws IOException {
    preferNoDelay();
    return HttpServer.create(address, 1024);
  }
}
