package dev.firedrill.proxy;

import dev.firedrill.net.http1.Http1Reader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayDeque;
import java.util.Deque;

/** Keep-alive connections to the upstream, reused one request at a time. */
final class UpstreamPool implements AutoCloseable {

  static final int CONNECT_TIMEOUT_MS = 5_000;
  static final int READ_TIMEOUT_MS = 60_000;
  private static final int MAX_IDLE = 256;

  /** One upstream connection and its reader. */
  record Connection(Socket socket, Http1Reader input, boolean reused) {
    void closeQuietly() {
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
  }

  private final InetSocketAddress address;
  private final Deque<Connection> idle = new ArrayDeque<>();
  private boolean closed;
  private final java.util.concurrent.atomic.AtomicLong opened =
      new java.util.concurrent.atomic.AtomicLong();

  UpstreamPool(InetSocketAddress address) {
    this.address = address;
  }

  InetSocketAddress address() {
    return address;
  }

  /** An idle connection, or a new one. */
  Connection acquire() throws IOException {
    synchronized (idle) {
      Connection pooled = idle.pollFirst();
      if (pooled != null) {
        return new Connection(pooled.socket(), pooled.input(), true);
      }
    }
    return open();
  }

  /**
   * Connections opened so far: under keep-alive, about the peak concurrency, not the request count.
   */
  long opened() {
    return opened.get();
  }

  Connection open() throws IOException {
    opened.incrementAndGet();
    Socket socket = new Socket();
    try {
      socket.setTcpNoDelay(true);
      socket.connect(address, CONNECT_TIMEOUT_MS);
      socket.setSoTimeout(READ_TIMEOUT_MS);
      return new Connection(
          socket, new Http1Reader(Http1Reader.Source.of(socket.getInputStream())), false);
    } catch (IOException e) {
      socket.close();
      throw e;
    }
  }

  void release(Connection connection) {
    synchronized (idle) {
      if (!closed && idle.size() < MAX_IDLE) {
        idle.addFirst(connection);
        return;
      }
    }
    connection.closeQuietly();
  }

  @Override
  public void close() {
    synchronized (idle) {
      closed = true;
      idle.forEach(Connection::closeQuietly);
      idle.clear();
    }
  }
}
