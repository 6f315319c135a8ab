package dev.firedrill.proxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * HTTP mode's listener: accepts connections and deals them out, in turn, to a few {@link
 * HttpEventLoop}s, one per core up to {@link #MAX_LOOPS}. More than one loop, because every proxied
 * request goes through a loop twice: with one, that one thread is the proxy's whole share of a busy
 * machine's CPU. At most {@link ClientLimits#connections()} clients are connected at once; one more
 * is closed as it is accepted.
 */
final class HttpListener implements AutoCloseable {

  static final int MAX_LOOPS = 4;

  private final ServerSocketChannel server;
  private final InetSocketAddress bound;
  private final Workers workers;
  private final List<HttpEventLoop> loops = new ArrayList<>();
  private final AtomicLong opened = new AtomicLong();
  private final ClientLimits limits;

  /** Client connections open: the acceptor counts them in, the loops and workers out. */
  private final AtomicInteger clients = new AtomicInteger();

  private final Thread acceptor;
  private volatile boolean closed;

  HttpListener(
      InetSocketAddress address,
      String name,
      InetSocketAddress upstreamAddress,
      Forwarding forwarding,
      HttpProxyHandler handler,
      ToxicTable toxics,
      ProxyMetrics metrics,
      ClientLimits limits)
      throws IOException {
    this.limits = limits;
    this.server = ServerSocketChannel.open();
    this.workers = new Workers(name);
    try {
      server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      server.bind(address, 1024);
      this.bound = (InetSocketAddress) server.getLocalAddress();
      int count = Math.max(1, Math.min(MAX_LOOPS, Runtime.getRuntime().availableProcessors()));
      for (int i = 0; i < count; i++) {
        loops.add(
            new HttpEventLoop(
                name + "-loop-" + (i + 1),
                upstreamAddress,
                forwarding,
                handler,
                workers,
                toxics,
                metrics,
                opened,
                limits,
                clients));
      }
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
    this.acceptor = new Thread(this::acceptLoop, name + "-accept");
    acceptor.setDaemon(true);
  }

  void start() {
    loops.forEach(HttpEventLoop::start);
    acceptor.start();
  }

  InetSocketAddress address() {
    return bound;
  }

  /** Connections to the upstream the loops opened. */
  long upstreamConnectionsOpened() {
    return opened.get();
  }

  /** Runs until {@link #close()}: blocking accepts, each connection to the next loop. */
  private void acceptLoop() {
    int next = 0;
    while (!closed) {
      SocketChannel channel;
      try {
        channel = server.accept();
      } catch (IOException e) {
        if (closed || !server.isOpen()) {
          return;
        }
        continue; // too many files, say
      }
      if (clients.get() >= limits.connections()) {
        closeQuietly(channel); // only this thread counts in, so the bound holds
        continue;
      }
      clients.incrementAndGet();
      try {
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      } catch (IOException e) {
        closeQuietly(channel);
        clients.decrementAndGet();
        continue;
      }
      loops.get(next).adopt(channel);
      next = (next + 1) % loops.size();
    }
  }

  /** Client connections open now. */
  int clients() {
    return clients.get();
  }

  private static void closeQuietly(SocketChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // gone anyway
    }
  }

  /** Stops accepting, closes every connection, and does not wait for the threads. */
  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    loops.forEach(HttpEventLoop::close);
    workers.close();
  }
}
