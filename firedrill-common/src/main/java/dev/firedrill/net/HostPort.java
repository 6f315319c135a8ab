package dev.firedrill.net;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code HOST:PORT} for a listen address: an IP literal ({@code [::1]:9000} for IPv6) or {@code
 * localhost}.
 */
public final class HostPort {

  private static final Pattern FORM =
      Pattern.compile("(\\[[0-9A-Fa-f:.]+]|[0-9.]+|localhost):(\\d{1,5})");

  private HostPort() {}

  /**
   * Parses {@code 127.0.0.1:9000}; port 0 picks a free one. No name lookup beyond {@code
   * localhost}.
   */
  public static InetSocketAddress parse(String text) {
    Matcher m = text == null ? null : FORM.matcher(text);
    if (m == null || !m.matches()) {
      throw new IllegalArgumentException(
          "address \""
              + text
              + "\" is not usable (expected HOST:PORT with an IP address or localhost, such as 127.0.0.1:9000)");
    }
    int port = Integer.parseInt(m.group(2));
    if (port > 65_535) {
      throw new IllegalArgumentException(
          "address \"" + text + "\" has port " + port + " (expected 0 to 65535)");
    }
    String host = m.group(1);
    try {
      InetAddress address =
          host.equals("localhost")
              ? InetAddress.getLoopbackAddress()
              : InetAddress.getByName(host); // a literal: no lookup
      return new InetSocketAddress(address, port);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(
          "address \"" + text + "\" has no valid IP address (expected HOST:PORT)", e);
    }
  }

  /** An ephemeral port on 127.0.0.1. */
  public static InetSocketAddress loopbackAnyPort() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
  }

  /** {@code 127.0.0.1:9000} or {@code [::1]:9000}. */
  public static String format(InetSocketAddress address) {
    String host = address.getAddress().getHostAddress();
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
  }
}
