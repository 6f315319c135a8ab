package dev.firedrill.experiment;

import java.util.Objects;

/**
 * firedrill's own Alertmanager webhook receiver during a drill: where it listens, the bearer token
 * Alertmanager must send (from an environment variable or a file), and the largest payload taken.
 */
public record ReceiverSpec(String listen, TokenSource bearerToken, long maxPayloadBytes) {

  public static final long DEFAULT_MAX_PAYLOAD = 1 << 20;

  public ReceiverSpec {
    Objects.requireNonNull(listen, "listen");
    bearerToken = bearerToken == null ? TokenSource.none() : bearerToken;
    maxPayloadBytes = maxPayloadBytes <= 0 ? DEFAULT_MAX_PAYLOAD : maxPayloadBytes;
  }
}
