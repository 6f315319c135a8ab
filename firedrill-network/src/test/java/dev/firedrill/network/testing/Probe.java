package dev.firedrill.network.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * Real traffic from inside a test namespace, one JVM per measurement ({@code ip netns exec NS java
 * ... Probe MODE ...}); prints one line of results:
 *
 * <ul>
 *   <li>{@code connect HOST PORT N TIMEOUT_MS}: N connections, each closed at once; prints {@code
 *       ok O timeout T refused R other X millis M}, M the slowest attempt
 *   <li>{@code upload HOST PORT BYTES}: sends BYTES and waits for the server's answer; prints
 *       {@code nanos N}
 * </ul>
 */
public final class Probe {

  private Probe() {}

  public static void main(String[] args) throws IOException {
    InetSocketAddress target = new InetSocketAddress(args[1], Integer.parseInt(args[2]));
    if ("connect".equals(args[0])) {
      connect(target, Integer.parseInt(args[3]), Integer.parseInt(args[4]));
    } else {
      upload(target, Long.parseLong(args[3]));
    }
  }

  private static void connect(InetSocketAddress target, int attempts, int timeoutMillis) {
    int ok = 0;
    int timeout = 0;
    int refused = 0;
    int other = 0;
    long slowest = 0;
    for (int i = 0; i < attempts; i++) {
      long start = System.nanoTime();
      try (Socket socket = new Socket()) {
        socket.connect(target, timeoutMillis);
        ok++;
      } catch (SocketTimeoutException e) {
        timeout++;
      } catch (ConnectException e) {
        refused++;
      } catch (IOException e) {
        other++;
      }
      slowest = Math.max(slowest, (System.nanoTime() - start) / 1_000_000);
    }
    System.out.println(
        "ok "
            + ok
            + " timeout "
            + timeout
            + " refused "
            + refused
            + " other "
            + other
            + " millis "
            + slowest);
  }

  private static void upload(InetSocketAddress target, long bytes) throws IOException {
    byte[] chunk = new byte[64 * 1024];
    long start = System.nanoTime();
    try (Socket socket = new Socket()) {
      socket.connect(target, 5_000);
      socket.setSoTimeout(120_000);
      OutputStream out = socket.getOutputStream();
      for (long left = bytes; left > 0; left -= chunk.length) {
        out.write(chunk, 0, (int) Math.min(chunk.length, left));
      }
      socket.shutdownOutput();
      InputStream in = socket.getInputStream();
      if (in.read() != 'k') {
        throw new IOException("the server did not acknowledge the upload");
      }
    }
    System.out.println("nanos " + (System.nanoTime() - start));
  }
}
