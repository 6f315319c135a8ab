package dev.firedrill.experiment;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/** The Alertmanager the drill reads alerts and their receivers from ({@code /api/v2/alerts}). */
public record AlertmanagerSource(URI url, Duration timeout) {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  public AlertmanagerSource {
    Objects.requireNonNull(url, "url");
    timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
  }
}
