package dev.firedrill.experiment;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/** Where the SLIs and guards are measured. The token itself never appears in the file. */
public record PrometheusSource(URI url, Duration timeout, TokenSource bearerToken) {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  public PrometheusSource {
    Objects.requireNonNull(url, "url");
    timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
    bearerToken = bearerToken == null ? TokenSource.none() : bearerToken;
  }
}
