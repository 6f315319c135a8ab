package dev.firedrill.proxy;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/** What one fault proxy serves. The admin token is never shown by {@link #toString()}. */
public record ProxyConfig(
    String name,
    Mode mode,
    InetSocketAddress listen,
    URI upstream,
    InetSocketAddress admin,
    Optional<InetSocketAddress> metrics,
    Optional<String> adminToken) {

  /** HTTP: request by request, with every toxic; TCP: a byte pipe per connection, without error. */
  public enum Mode {
    HTTP,
    TCP
  }

  public static final String DEFAULT_NAME = "payments";
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");

  public ProxyConfig {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(listen, "listen");
    Objects.requireNonNull(upstream, "upstream");
    Objects.requireNonNull(admin, "admin");
    metrics = metrics == null ? Optional.empty() : metrics;
    adminToken = adminToken == null ? Optional.empty() : adminToken;
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "proxy name "
              + (name == null ? "missing" : "\"" + name + "\"")
              + ": expected 1 to 100 letters, digits, '.', '_' or '-', such as payments");
    }
    if (upstream.getHost() == null || upstream.getPort() == -1 && mode == Mode.TCP) {
      throw new IllegalArgumentException(
          "upstream "
              + upstream
              + ": expected host and port, such as "
              + (mode == Mode.TCP ? "tcp://127.0.0.1:9000" : "http://127.0.0.1:9000"));
    }
    if (!admin.getAddress().isLoopbackAddress() && adminToken.isEmpty()) {
      // Anyone who reaches the admin API can break the service's traffic: off this host only
      // behind a token.
      throw new IllegalArgumentException(
          "admin "
              + admin.getAddress().getHostAddress()
              + ":"
              + admin.getPort()
              + ": an admin API off the loopback address needs a token (expected"
              + " --admin-token-env, or --admin 127.0.0.1:PORT)");
    }
    if (mode == Mode.HTTP && !"http".equalsIgnoreCase(upstream.getScheme())) {
      throw new IllegalArgumentException(
          "upstream "
              + upstream
              + ": expected an http:// URL in http mode"
              + " (https upstreams are not supported; use --mode tcp to pass TLS through)");
    }
  }

  /** The upstream's socket address; the scheme's default port when the URL has none. */
  public InetSocketAddress upstreamAddress() {
    int port = upstream.getPort() != -1 ? upstream.getPort() : 80;
    return new InetSocketAddress(upstream.getHost(), port);
  }

  @Override
  public String toString() {
    return "ProxyConfig[name="
        + name
        + ", mode="
        + mode
        + ", listen="
        + listen
        + ", upstream="
        + upstream
        + ", admin="
        + admin
        + ", metrics="
        + metrics
        + ", adminToken="
        + (adminToken.isPresent() ? "(set)" : "none")
        + "]";
  }
}
