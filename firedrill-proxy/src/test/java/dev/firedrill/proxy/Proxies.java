package dev.firedrill.proxy;

import dev.firedrill.net.http1.Http1Reader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.Optional;

/** Proxies on 127.0.0.1 with free ports, named payments. */
final class Proxies {

  private Proxies() {}

  static InetSocketAddress anyPort() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
  }

  /** A blocking reader of what {@code socket} receives. */
  static Http1Reader reader(Socket socket) throws IOException {
    return new Http1Reader(Http1Reader.Source.of(socket.getInputStream()));
  }

  static FaultProxy http(URI upstream) throws IOException {
    return start(upstream, ProxyConfig.Mode.HTTP, null);
  }

  static FaultProxy start(URI upstream, ProxyConfig.Mode mode, String token) throws IOException {
    return FaultProxy.start(
        new ProxyConfig(
            "payments",
            mode,
            anyPort(),
            upstream,
            anyPort(),
            Optional.of(anyPort()),
            Optional.ofNullable(token)));
  }
}
