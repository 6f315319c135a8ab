package dev.firedrill.promconfig;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One {@code alerting.alertmanagers} entry; alerts go to {@code scheme://target + pathPrefix +
 * /api/v2/alerts}.
 */
public record AlertmanagerConfig(
    List<StaticConfig> staticConfigs,
    String pathPrefix,
    String scheme,
    Duration timeout,
    String apiVersion) {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  public AlertmanagerConfig {
    staticConfigs = List.copyOf(staticConfigs);
    Objects.requireNonNull(pathPrefix, "pathPrefix");
    Objects.requireNonNull(scheme, "scheme");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(apiVersion, "apiVersion");
  }
}
