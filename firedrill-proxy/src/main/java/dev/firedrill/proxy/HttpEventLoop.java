package dev.firedrill.proxy;

import dev.firedrill.net.http1.Http1Head;
import dev.firedrill.net.http1.Http1Reader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.Channel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One thread with a selector that serves the plain requests of the connections {@link HttpListener}
 * gives it while no toxic is in force: two thread switches fewer per request than a thread per
 * connection waiting on the client and then on the upstream, which on a small machine is most of a
 * proxied request's cost. A connection whose next request meets a toxic (or is anything but plain:
 * chunked, Expect, a body above what the reader buffers) is handed over, with its reader (and so
 * every byte read ahead) and the request's head, to {@link HttpProxyHandler} on a thread of its
 * own, which serves it from then on.
 */
final class HttpEventLoop implements AutoCloseable {

  private static final long TICK_MS = 1000;
  private static final int MAX_IDLE_UPSTREAMS = 256;

  /**
   * A connection to the upstream, owned by the loop; attached to its key while an exchange uses it.
   */
  static final class Upstream {
    final SocketChannel channel;
    final SelectionKey key;
    final Http1Reader in;
    boolean reused;

    Upstream(SocketChannel channel, SelectionKey key) {
      this.channel = channel;
      this.key = key;
      this.in = new Http1Reader(Http1Reader.Source.of(channel));
    }

    void close() {
      key.cancel();
      try {
        channel.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
  }

  /**
   * A client channel leaving the loop, its reader, and the head of the request it is to serve
   * first.
   */
  private record Handover(SocketChannel channel, Http1Reader reader, Http1Head head) {}

  final ToxicTable toxics;
  final ProxyMetrics metrics;
  final Forwarding forwarding;
  final ClientLimits limits;
  private final AtomicInteger clients;
  private final InetSocketAddress upstreamAddress;
  private final HttpProxyHandler handler;
  private final Workers workers;
  private final Selector selector;
  private final Thread thread;
  private final Queue<SocketChannel> adopted = new ConcurrentLinkedQueue<>();
  private final Set<LoopExchange> exchanges = new HashSet<>();
  private final Deque<Upstream> idle = new ArrayDeque<>();
  private final List<Handover> handovers = new ArrayList<>();
  private final AtomicLong opened;
  private volatile boolean closed;

  HttpEventLoop(
      String name,
      InetSocketAddress upstreamAddress,
      Forwarding forwarding,
      HttpProxyHandler handler,
      Workers workers,
      ToxicTable toxics,
      ProxyMetrics metrics,
      AtomicLong opened,
      ClientLimits limits,
      AtomicInteger clients)
      throws IOException {
    this.limits = limits;
    this.clients = clients;
    this.upstreamAddress = upstreamAddress;
    this.forwarding = forwarding;
    this.handler = handler;
    this.workers = workers;
    this.toxics = toxics;
    this.metrics = metrics;
    this.opened = opened;
    this.selector = Selector.open();
    this.thread = new Thread(this::run, name);
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Serves {@code channel} (connected, non-blocking) from the loop's next round on. Any thread. */
  void adopt(SocketChannel channel) {
    adopted.add(channel);
    selector.wakeup();
    if (closed && adopted.remove(channel)) {
      closeQuietly(channel);
    }
  }

  private void run() {
    long nextTick = System.nanoTime() + TICK_MS * 1_000_000;
    try {
      while (!closed) {
        // A cancelled key leaves its selector at the next select: only then may its channel block.
        if (handovers.isEmpty()) {
          selector.select(TICK_MS);
        } else {
          selector.selectNow();
          finishHandovers();
        }
        registerAdopted();
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
          SelectionKey key = keys.next();
          keys.remove();
          if (key.isValid()) {
            ready(key);
          }
        }
        long now = System.nanoTime();
        if (now - nextTick >= 0) {
          nextTick = now + TICK_MS * 1_000_000;
          for (LoopExchange exchange : List.copyOf(exchanges)) {
            exchange.tick(now);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // the selector itself failed: nothing more can be served; close() below ends every connection
    } finally {
      shutdown();
    }
  }

  private void ready(SelectionKey key) {
    Object attachment = key.attachment();
    if (attachment instanceof LoopExchange exchange) {
      exchange.ready(key);
    } else { // an idle upstream the upstream closed (or wrote to, out of turn): not reusable
      idle.removeIf(upstream -> upstream.key == key);
      key.cancel();
      closeQuietly(key.channel());
    }
  }

  private void registerAdopted() {
    for (SocketChannel channel = adopted.poll(); channel != null; channel = adopted.poll()) {
      try {
        LoopExchange exchange = new LoopExchange(this, channel);
        exchange.register(selector);
        exchanges.add(exchange);
      } catch (IOException e) {
        closeQuietly(channel);
        clients.decrementAndGet();
      }
    }
  }

  private static void closeQuietly(Channel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }

  /**
   * An idle upstream connection, or a new one (maybe still connecting) when {@code fresh} or none
   * is idle.
   */
  Upstream upstream(LoopExchange exchange, boolean fresh) throws IOException {
    Upstream upstream = fresh ? null : idle.pollFirst();
    if (upstream != null) {
      upstream.reused = true;
      upstream.key.attach(exchange);
      return upstream;
    }
    opened.incrementAndGet();
    SocketChannel channel = SocketChannel.open();
    try {
      channel.configureBlocking(false);
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      boolean connected = channel.connect(upstreamAddress);
      SelectionKey key =
          channel.register(selector, connected ? 0 : SelectionKey.OP_CONNECT, exchange);
      return new Upstream(channel, key);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /**
   * Takes back an upstream connection after a whole response; an idle one stays registered for
   * reads, so that one the upstream closes is closed here too.
   */
  void release(Upstream upstream) {
    if (closed || idle.size() >= MAX_IDLE_UPSTREAMS || !upstream.key.isValid()) {
      upstream.close();
      return;
    }
    upstream.in.clear();
    upstream.key.attach(null);
    upstream.key.interestOps(SelectionKey.OP_READ);
    idle.addFirst(upstream);
  }

  /** The exchange is over and its client channel closed. */
  void ended(LoopExchange exchange) {
    if (exchanges.remove(exchange)) {
      clients.decrementAndGet();
    }
  }

  /**
   * Hands the exchange's client over to the blocking handler, with its reader and the request to
   * serve.
   */
  void handOver(LoopExchange exchange, SelectionKey clientKey, Http1Reader reader, Http1Head head) {
    exchanges.remove(exchange);
    clientKey.cancel();
    handovers.add(new Handover((SocketChannel) clientKey.channel(), reader, head));
  }

  private void finishHandovers() {
    for (Handover handover : handovers) {
      try {
        handover.channel().configureBlocking(true);
      } catch (IOException | RuntimeException e) {
        closeQuietly(handover.channel());
        clients.decrementAndGet();
        continue;
      }
      boolean served =
          workers.serve(
              handover.channel().socket(),
              (socket, executor) -> {
                try {
                  handler.handle(socket, handover.reader(), handover.head());
                } finally {
                  clients.decrementAndGet();
                }
              });
      if (!served) {
        clients.decrementAndGet();
      }
    }
    handovers.clear();
  }

  private void shutdown() {
    adopted.forEach(HttpEventLoop::closeQuietly);
    adopted.clear();
    for (LoopExchange exchange : List.copyOf(exchanges)) {
      exchange.close();
    }
    idle.forEach(Upstream::close);
    idle.clear();
    for (Handover handover : handovers) {
      try {
        handover.channel().close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
    try {
      selector.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }

  /** Stops serving and closes every connection (the loop's own as it ends); does not wait. */
  @Override
  public void close() {
    closed = true;
    selector.wakeup();
    if (!thread.isAlive()) {
      shutdown();
    }
  }
}
