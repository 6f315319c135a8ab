package dev.firedrill.network.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A TCP server run inside a test namespace ({@code ip netns exec NS java ... SinkServer ADDRESS
 * PORT}): reads each connection to its end, then answers one byte and closes. It prints {@code
 * listening} once bound and exits when its stdin closes (the test, or the test JVM, is gone) or
 * after ten minutes at most.
 */
public final class SinkServer {

  private static final long LIFETIME_MILLIS = 600_000;

  private SinkServer() {}

  public static void main(String[] args) throws IOException {
    ServerSocket server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1])));
    System.out.println("listening");
    System.out.flush();
    Thread watch =
        new Thread(
            () -> {
              try {
                while (System.in.read() >= 0) {
                  // nothing to read: the parent only ever closes stdin
                }
              } catch (IOException e) {
                // the parent is gone either way
              }
              System.exit(0);
            });
    watch.setDaemon(true);
    watch.start();
    Thread limit =
        new Thread(
            () -> {
              try {
                Thread.sleep(LIFETIME_MILLIS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              System.exit(0);
            });
    limit.setDaemon(true);
    limit.start();
    while (true) {
      Socket socket = server.accept();
      Thread handler = new Thread(() -> serve(socket));
      handler.setDaemon(true);
      handler.start();
    }
  }

  private static void serve(Socket socket) {
    try (socket;
        InputStream in = socket.getInputStream();
        OutputStream out = socket.getOutputStream()) {
      socket.setSoTimeout(60_000);
      in.transferTo(OutputStream.nullOutputStream());
      out.write('k');
    } catch (IOException e) {
      // a probe that gave up: nothing to answer
    }
  }
}
