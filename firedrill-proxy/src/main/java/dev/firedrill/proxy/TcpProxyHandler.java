package dev.firedrill.proxy;

import dev.firedrill.net.http1.Http1Reader;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;

/**
 * TCP mode: a byte pipe per connection. Whether a toxic applies is drawn once per connection (as
 * Toxiproxy does per link), the first time the connection meets it; its effect then acts on every
 * chunk read in the toxic's stream.
 */
final class TcpProxyHandler implements Listener.Handler {

  private static final int CHUNK = 16 * 1024;

  private final InetSocketAddress upstream;
  private final ToxicTable toxics;
  private final ProxyMetrics metrics;
  private final Clock clock;

  TcpProxyHandler(
      InetSocketAddress upstream, ToxicTable toxics, ProxyMetrics metrics, Clock clock) {
    this.upstream = upstream;
    this.toxics = toxics;
    this.metrics = metrics;
    this.clock = clock;
  }

  @Override
  public void handle(Socket client, Executor executor) throws IOException {
    Map<String, Boolean> draws = new ConcurrentHashMap<>();
    metrics.request(applied(draws, null).label());
    Socket server = new Socket();
    try {
      server.setTcpNoDelay(true);
      client.setTcpNoDelay(true);
      server.connect(upstream, UpstreamPool.CONNECT_TIMEOUT_MS);
      executor.execute(
          () -> {
            try {
              pump(client, server, ToxicStream.UPSTREAM, draws);
            } catch (IOException e) {
              closeBoth(client, server);
            }
          });
      pump(server, client, ToxicStream.DOWNSTREAM, draws);
    } finally {
      server.close();
    }
  }

  /** The toxics in force that this connection drew, on {@code stream} (null: any). */
  private Applied applied(Map<String, Boolean> draws, ToxicStream stream) {
    return Applied.select(
        toxics.active(),
        toxic ->
            (stream == null || toxic.stream() == stream)
                && draws.computeIfAbsent(
                    toxic.name(),
                    name ->
                        toxic.toxicity() >= 1
                            || ThreadLocalRandom.current().nextDouble() < toxic.toxicity()));
  }

  /**
   * Copies {@code from} to {@code to} until the end of stream, with the toxics of {@code stream}.
   */
  private void pump(Socket from, Socket to, ToxicStream stream, Map<String, Boolean> draws)
      throws IOException {
    Socket client = stream == ToxicStream.UPSTREAM ? from : to;
    InputStream in = from.getInputStream();
    OutputStream out = to.getOutputStream();
    byte[] buffer = new byte[CHUNK];
    while (true) { // ends with the stream or the connection
      int n = in.read(buffer);
      if (n < 0) {
        if (!to.isClosed()) {
          to.shutdownOutput();
        }
        return;
      }
      Applied applied = applied(draws, stream);
      if (!applied.isEmpty()) {
        Applied.sleep(clock, applied.latency(stream));
        if (applied.first(ToxicKind.Reset.class, stream).isPresent()) {
          Applied.reset(client);
          closeBoth(from, to);
          return;
        }
        var hold = applied.first(ToxicKind.Timeout.class, stream);
        if (hold.isPresent()
            && Applied.hold(hold.get(), clock, client::isClosed) != Applied.HoldEnd.RELEASED) {
          closeBoth(from, to);
          return;
        }
        long rate = applied.bandwidth(stream);
        if (rate > 0) {
          new Throttle(Http1Reader.Sink.of(out), rate, clock).write(buffer, 0, n);
          out.flush();
          continue;
        }
      }
      out.write(buffer, 0, n);
      out.flush();
    }
  }

  private static void closeBoth(Socket a, Socket b) {
    for (Socket socket : new Socket[] {a, b}) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
  }
}
