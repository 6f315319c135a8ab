package dev.firedrill.alerting.receiver;

import dev.firedrill.net.HostPort;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * How the webhook receiver listens.
 *
 * @param listen where to bind; {@link #DEFAULT_LISTEN} is 127.0.0.1 on a free port
 * @param bearerToken the token Alertmanager must send as {@code Authorization: Bearer ...}; the
 *     value itself, read by the caller from an environment variable or a file. Never printed:
 *     {@link #toString} redacts it
 * @param maxPayloadBytes larger bodies are refused with 413 without being read whole
 */
public record ReceiverConfig(
    InetSocketAddress listen, Optional<String> bearerToken, long maxPayloadBytes) {

  public static final long DEFAULT_MAX_PAYLOAD_BYTES = 1024 * 1024;

  public ReceiverConfig {
    Objects.requireNonNull(listen, "listen");
    Objects.requireNonNull(bearerToken, "bearerToken");
    bearerToken.ifPresent(ReceiverConfig::checkToken);
    if (maxPayloadBytes < 1) {
      throw new IllegalArgumentException(
          "webhook receiver max payload size "
              + maxPayloadBytes
              + " is not usable (expected at least 1 byte)");
    }
  }

  /** 127.0.0.1 on a free port, no token, 1 MiB. */
  public static ReceiverConfig defaults() {
    return new ReceiverConfig(
        HostPort.loopbackAnyPort(), Optional.empty(), DEFAULT_MAX_PAYLOAD_BYTES);
  }

  /** Listens on {@code HOST:PORT} (see {@link HostPort#parse}). */
  public ReceiverConfig withListen(String hostPort) {
    return new ReceiverConfig(HostPort.parse(hostPort), bearerToken, maxPayloadBytes);
  }

  public ReceiverConfig withBearerToken(String token) {
    return new ReceiverConfig(listen, Optional.of(token), maxPayloadBytes);
  }

  public ReceiverConfig withMaxPayloadBytes(long bytes) {
    return new ReceiverConfig(listen, bearerToken, bytes);
  }

  @Override
  public String toString() {
    return "ReceiverConfig[listen="
        + HostPort.format(listen)
        + ", bearerToken="
        + (bearerToken.isPresent() ? "<redacted>" : "none")
        + ", maxPayloadBytes="
        + maxPayloadBytes
        + "]";
  }

  private static void checkToken(String token) {
    if (token.isBlank() || token.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      throw new IllegalArgumentException(
          "bearer token for the webhook receiver is blank or holds a line break or control character"
              + " (expected one line of text)");
    }
  }
}
