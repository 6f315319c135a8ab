package dev.firedrill.proxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.Executor;

/** Accepts connections and hands each to a handler on a bounded pool of threads. */
final class Listener implements AutoCloseable {

  static final int MAX_THREADS = Workers.MAX_THREADS;

  /** Serves one accepted connection; may run more work on {@code executor}. */
  interface Handler {
    void handle(Socket socket, Executor executor) throws IOException;
  }

  private final ServerSocket server;
  private final Handler handler;
  private final Workers workers;
  private final Thread acceptor;
  private volatile boolean closed;

  Listener(InetSocketAddress address, String name, Handler handler) throws IOException {
    this.server = new ServerSocket();
    server.setReuseAddress(true);
    server.bind(address, 1024);
    this.handler = handler;
    this.workers = new Workers(name);
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
      workers.serve(socket, handler);
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
    workers.close();
  }
}
