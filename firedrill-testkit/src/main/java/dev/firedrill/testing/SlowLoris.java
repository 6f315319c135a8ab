package dev.firedrill.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A slow-loris against a loopback server: connections that start a request and then send one byte a
 * second of a header that never ends. Bounded in count and in time: at most {@code connections}
 * sockets, each written to for at most {@code limit}, all closed by {@link #close()}. Counts the
 * connections the server cut (a write refused), so a test can assert that it does. A {@link
 * #sustained} one opens a new connection for each one cut, so a server that cuts slow clients is
 * still under attack for all of {@code limit}.
 */
public final class SlowLoris implements AutoCloseable {

  private static final byte[] START =
      "POST /alerts HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII);

  private final List<Socket> sockets = new ArrayList<>();
  private final List<Boolean> cut = new ArrayList<>();
  private final AtomicInteger cutCount = new AtomicInteger();
  private final AtomicInteger openedCount = new AtomicInteger();
  private final InetSocketAddress address;
  private final boolean reopen;
  private final ScheduledExecutorService ticks =
      Executors.newSingleThreadScheduledExecutor(
          task -> {
            Thread thread = new Thread(task, "slow-loris");
            thread.setDaemon(true);
            return thread;
          });

  private SlowLoris(InetSocketAddress address, boolean reopen) {
    this.address = address;
    this.reopen = reopen;
  }

  /**
   * Opens up to {@code connections} to {@code address} (only loopback addresses), each sending its
   * request's start at once and then a byte a second until {@code limit} has passed.
   */
  public static SlowLoris start(InetSocketAddress address, int connections, Duration limit) {
    return start(address, connections, limit, false);
  }

  /**
   * As {@link #start}, and each second every connection the server cut is replaced by a new one, so
   * {@code connections} stay open (or being opened) until {@code limit} has passed.
   */
  public static SlowLoris sustained(InetSocketAddress address, int connections, Duration limit) {
    return start(address, connections, limit, true);
  }

  private static SlowLoris start(
      InetSocketAddress address, int connections, Duration limit, boolean reopen) {
    if (!address.getAddress().isLoopbackAddress()) {
      throw new IllegalArgumentException("a slow-loris only against loopback, not " + address);
    }
    SlowLoris loris = new SlowLoris(address, reopen);
    for (int i = 0; i < connections; i++) {
      Socket socket = loris.open();
      synchronized (loris) {
        loris.sockets.add(socket);
        loris.cut.add(socket.isClosed() || !socket.isConnected());
      }
    }
    long ticksLeft = Math.max(1, limit.toSeconds());
    AtomicInteger tick = new AtomicInteger();
    loris.ticks.scheduleAtFixedRate(
        () -> {
          if (tick.incrementAndGet() > ticksLeft) {
            loris.ticks.shutdown();
            return;
          }
          loris.tick();
        },
        1,
        1,
        TimeUnit.SECONDS);
    return loris;
  }

  /** A new connection that has sent its request's start, or a closed one the server refused. */
  private Socket open() {
    Socket socket = new Socket();
    openedCount.incrementAndGet();
    try {
      socket.connect(address, 1000);
      socket.getOutputStream().write(START);
      socket.getOutputStream().flush();
    } catch (IOException e) {
      // the server refused this one (its connection limit): counted as cut, as it was
      cutCount.incrementAndGet();
      try {
        socket.close();
      } catch (IOException ignored) {
        // refused anyway
      }
    }
    return socket;
  }

  private synchronized void tick() {
    for (int i = 0; i < sockets.size(); i++) {
      if (cut.get(i)) {
        if (reopen) {
          try {
            sockets.get(i).close();
          } catch (IOException ignored) {
            // replaced anyway
          }
          Socket socket = open();
          sockets.set(i, socket);
          cut.set(i, socket.isClosed() || !socket.isConnected());
        }
        continue;
      }
      try {
        OutputStream out = sockets.get(i).getOutputStream();
        out.write('a');
        out.flush();
      } catch (IOException e) {
        cut.set(i, true);
        cutCount.incrementAndGet();
      }
    }
  }

  /** Connections the server closed or refused so far. */
  public int cutByServer() {
    return cutCount.get();
  }

  /** Connections held at once, cut or not. */
  public synchronized int connections() {
    return sockets.size();
  }

  /** Connections opened (or tried) in all, those that replaced cut ones included. */
  public int opened() {
    return openedCount.get();
  }

  @Override
  public void close() {
    ticks.shutdownNow();
    synchronized (this) {
      for (Socket socket : sockets) {
        try {
          socket.close();
        } catch (IOException ignored) {
          // closing anyway
        }
      }
    }
  }
}
