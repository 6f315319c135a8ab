package dev.firedrill.experiment;

import dev.firedrill.http.HttpSettings;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * The Alertmanager the drill reads alerts and their receivers from ({@code /api/v2/alerts}), and
 * how to reach it.
 */
public record AlertmanagerSource(URI url, Duration timeout, HttpSettings http) {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  public AlertmanagerSource {
    Objects.requireNonNull(url, "url");
    timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
    http = http == null ? HttpSettings.none() : http;
  }

  /** An Alertmanager reached without credentials, headers or TLS settings. */
  public AlertmanagerSource(URI url, Duration timeout) {
    this(url, timeout, HttpSettings.none());
  }
}
