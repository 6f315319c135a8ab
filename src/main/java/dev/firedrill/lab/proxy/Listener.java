package dev.firedrill.lab.proxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Accepts connections and hands each to a handler on a bounded pool of threads. */
final class Listener implements AutoCloseable {

  static final int MAX_THREADS = 1024;

  /** Serves one accepted connection; may run more work on {@code executor}. */
  interface Handler {
    void handle(Socket socket, Executor executor) throws IOException;
  }

  private final ServerSocket server;
  private final Handler handler;
  private final ThreadPoolExecutor pool;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;
  private volatile boolean closed;

  Listener(InetSocketAddress address, String name, Handler handler) throws IOException {
    this.server = new ServerSocket();
    server.setReuseAddress(true);
    server.bind(address, 1024);
    this.handler = handler;
    AtomicInteger count = new AtomicInteger();
    this.pool = new ThreadPoolExecutor(0, MAX_THREADS, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
      Thread thread = new Thread(r, name + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    this.acceptor = new Thread(this::acceptLoop, name + "-accept");
    acceptor.setDaemon(true);
  }

  void start() {
    acceptor.start();
  }

  InetSocketAddress address() {
    return (InetSocketAddress) server.getLocalSocketAddress();
  }

  /** Runs until {@link #close()}. */
  private void acceptLoop() {
    while (!closed) {
      Socket socket;
      try {
        socket = server.accept();
      } catch (IOException e) {
        if (closed) {
          return;
        }
        continue;
      }
      open.add(socket);
      try {
        pool.execute(() -> serve(socket));
      } catch (RejectedExecutionException e) {
        Applied.reset(socket);
        open.remove(socket);
      }
    }
  }

  private void serve(Socket socket) {
    try {
      handler.handle(socket, this::execute);
    } catch (IOException | RuntimeException e) {
      // the connection's own failure; the client sees it closed
    } finally {
      open.remove(socket);
      try {
        socket.close();
      } catch (IOException ignored) {
        // already closed
      }
    }
  }

  private void execute(Runnable task) {
    pool.execute(task);
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
    for (Socket socket : open) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
    pool.shutdownNow();
  }
}
