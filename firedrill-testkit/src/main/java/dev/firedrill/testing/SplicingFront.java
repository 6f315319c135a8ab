package dev.firedrill.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

/**
 * The public port of a {@link StubHttpServer}: each connection a client opens is spliced, byte for
 * byte, to one connection to the JDK server behind it. The JDK server can only end a connection
 * with a FIN; through the front, the stub can end one with a TCP reset mid-answer ({@link
 * Spliced#reset}), and go away and come back on the same port while the server behind runs on.
 */
final class SplicingFront implements AutoCloseable {

  private final int behind;
  private final ExecutorService threads;
  private final int port;
  private volatile ServerSocket listener;

  /** The spliced connections by the local port of their socket to the server behind. */
  private final Map<Integer, Spliced> byBehindPort = new ConcurrentHashMap<>();

  /** Listens on 127.0.0.1, any free port, for the server on 127.0.0.1:{@code behind}. */
  SplicingFront(int behind, ExecutorService threads) throws IOException {
    this.behind = behind;
    this.threads = threads;
    this.listener = bind(0);
    this.port = listener.getLocalPort();
    accept(listener);
  }

  int port() {
    return port;
  }

  private static ServerSocket bind(int port) throws IOException {
    ServerSocket socket = new ServerSocket();
    socket.setReuseAddress(true);
    socket.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
    return socket;
  }

  private void accept(ServerSocket on) {
    Thread accepting =
        new Thread(
            () -> {
              while (!on.isClosed()) {
                try {
                  splice(on.accept());
                } catch (IOException e) {
                  return; // closed: gone, or the stub closed
                }
              }
            },
            "stub-front-" + on.getLocalPort());
    accepting.setDaemon(true);
    accepting.start();
  }

  private void splice(Socket client) throws IOException {
    Socket back;
    try {
      back = new Socket(InetAddress.getLoopbackAddress(), behind);
    } catch (IOException e) {
      client.close();
      return;
    }
    Spliced spliced = new Spliced(client, back);
    // Known before its first byte reaches the server behind, so its handler finds it.
    byBehindPort.put(spliced.backPort, spliced);
    try {
      threads.execute(() -> spliced.copy(client, back, true));
      threads.execute(() -> spliced.copy(back, client, false));
    } catch (RejectedExecutionException e) {
      spliced.close(); // the stub is closing
    }
  }

  /** The client's connection whose socket to the server behind has local port {@code port}. */
  Optional<Spliced> connection(int behindPort) {
    return Optional.ofNullable(byBehindPort.get(behindPort));
  }

  /** Stops listening and closes every connection: a backend gone. */
  void drop() {
    closeQuietly(listener);
    byBehindPort.values().forEach(Spliced::close);
  }

  /** Listens again on the same port. */
  void relisten() throws IOException {
    listener = bind(port);
    accept(listener);
  }

  @Override
  public void close() {
    drop();
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      // Closing what may already be closed: nothing is left to do.
    }
  }

  /** One client connection and its connection to the server behind. */
  final class Spliced {
    private final Socket client;
    private final Socket back;
    private final int backPort;

    private Spliced(Socket client, Socket back) {
      this.client = client;
      this.back = back;
      this.backPort = back.getLocalPort();
    }

    /**
     * Copies until {@code from} ends; the client's end of its request stream is passed on as such
     * (the server behind may still answer), the server's end closes both.
     */
    private void copy(Socket from, Socket to, boolean request) {
      byte[] buffer = new byte[64 * 1024];
      try (InputStream in = from.getInputStream()) {
        OutputStream out = to.getOutputStream();
        for (int n; (n = in.read(buffer)) >= 0; ) {
          out.write(buffer, 0, n); // a socket's stream is unbuffered: written is sent
        }
        if (request) {
          to.shutdownOutput();
          return;
        }
      } catch (IOException e) {
        // Either side gone: the other goes too.
      }
      close();
    }

    /**
     * Sends the client {@code bytes} (a status line, headers, part of a body) in place of the
     * server behind, then resets the connection: SO_LINGER 0 makes the close a RST, not a FIN.
     */
    void reset(byte[] bytes) throws IOException {
      try {
        OutputStream out = client.getOutputStream();
        out.write(bytes);
        out.flush();
        client.setSoLinger(true, 0);
      } catch (SocketException e) {
        // The client has gone already: there is nothing to reset.
      } finally {
        close();
      }
    }

    private void close() {
      byBehindPort.remove(backPort, this);
      closeQuietly(client);
      closeQuietly(back);
    }
  }
}
