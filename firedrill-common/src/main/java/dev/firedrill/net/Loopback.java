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

  /**
   * The ports handed out lie below the kernel's ephemeral range (read from {@code
   * /proc/sys/net/ipv4/ip_local_port_range}, 32768 by default): a port chosen now and bound later
   * (a receiver written into Alertmanager's config before the drill opens it) can then never be
   * taken meanwhile by some client's outgoing connection, which draws its local port from that
   * range.
   */
  private static final int LOWEST = 20000;

  private static final java.util.concurrent.atomic.AtomicInteger NEXT =
      new java.util.concurrent.atomic.AtomicInteger(
          LOWEST
              + (int)
                  ((ProcessHandle.current().pid() * 7919L)
                      % Math.max(1, ephemeralStart() - LOWEST)));

  public static int freePort() {
    return freePorts(1)[0];
  }

  /**
   * {@code count} distinct free ports: every socket stays bound until all are found, since a port
   * released at once may be handed out again by the next call.
   */
  public static int[] freePorts(int count) {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      int[] ports = new int[count];
      int span = ephemeralStart() - LOWEST;
      for (int i = 0, tries = 0; i < count; tries++) {
        if (tries > span) {
          throw new IOException("no free port between " + LOWEST + " and " + ephemeralStart());
        }
        int port = LOWEST + Math.floorMod(NEXT.getAndIncrement() - LOWEST, span);
        try {
          ServerSocket socket = new ServerSocket();
          sockets.add(socket);
          socket.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
          ports[i++] = port;
        } catch (IOException taken) {
          // in use: try the next one
        }
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

  /** The first port of the kernel's ephemeral range; 32768 where it cannot be read. */
  static int ephemeralStart() {
    try {
      String range =
          java.nio.file.Files.readString(
                  java.nio.file.Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
              .strip();
      int start = Integer.parseInt(range.split("\\s+")[0]);
      return start > LOWEST + 1000 ? start : 32768;
    } catch (IOException | RuntimeException e) {
      return 32768;
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
