package dev.firedrill.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Loopback as the lab uses it: whether a URL's host is loopback (127.0.0.0/8, ::1 or localhost),
 * decided without a DNS lookup, and free ports on 127.0.0.1.
 */
public final class Loopback {

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  private Loopback() {}

  public static boolean isLoopback(URI url) {
    String host = url.getHost();
    if (host == null) {
      return false;
    }
    host = host.toLowerCase(Locale.ROOT);
    if (host.equals("localhost")) {
      return true;
    }
    boolean v6 = host.startsWith("[") && host.endsWith("]");
    if (!v6 && !IPV4.matcher(host).matches()) {
      return false; // a name: refusing beats resolving it
    }
    try {
      return InetAddress.getByName(v6 ? host.substring(1, host.length() - 1) : host)
          .isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free port on 127.0.0.1", e);
    }
  }

  /**
   * {@code count} distinct free ports: every socket stays bound until all are found, since a port
   * released at once may be handed out again by the next call.
   */
  public static int[] freePorts(int count) {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      int[] ports = new int[count];
      for (int i = 0; i < count; i++) {
        ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        sockets.add(socket);
        ports[i] = socket.getLocalPort();
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find " + count + " free ports on 127.0.0.1", e);
    } finally {
      for (ServerSocket socket : sockets) {
        try {
          socket.close();
        } catch (IOException e) {
          // the port is ours either way; nothing to undo
        }
      }
    }
  }

  /** Whether something listens on (or holds) this port of 127.0.0.1. */
  public static boolean inUse(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  /** The URL without user-info, query or fragment: safe to print. */
  public static String safe(URI url) {
    String host = url.getHost() == null ? "" : url.getHost();
    return (url.getScheme() == null ? "" : url.getScheme() + "://")
        + host
        + (url.getPort() < 0 ? "" : ":" + url.getPort())
        + (url.getRawPath() == null ? "" : url.getRawPath());
  }
}
