package dev.firedrill.proxy;

import java.io.IOException;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bounded pool of threads serving one blocking connection each, and the connections they hold.
 */
final class Workers implements AutoCloseable {

  static final int MAX_THREADS = 1024;

  private final ThreadPoolExecutor pool;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();

  Workers(String name) {
    AtomicInteger count = new AtomicInteger();
    this.pool =
        new ThreadPoolExecutor(
            0,
            MAX_THREADS,
            30,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            r -> {
              Thread thread = new Thread(r, name + "-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * Serves {@code socket} with {@code handler} on a thread of its own, then closes it; resets it
   * when none is left (and answers false).
   */
  boolean serve(Socket socket, Listener.Handler handler) {
    open.add(socket);
    try {
      pool.execute(() -> run(socket, handler));
      return true;
    } catch (RejectedExecutionException e) {
      Applied.reset(socket);
      open.remove(socket);
      return false;
    }
  }

  private void run(Socket socket, Listener.Handler handler) {
    try {
      handler.handle(socket, pool::execute);
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

  /** Closes every connection and does not wait for the threads. */
  @Override
  public void close() {
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
