package dev.firedrill.experiment;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The Grafana that gets the drill's annotation: on a dashboard (and panel) when given, otherwise
 * an organization annotation. The token comes from an environment variable or a file.
 */
public record GrafanaTarget(URI url, Optional<String> dashboardUid, Optional<Integer> panelId, TokenSource token,
    Duration timeout) {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

  public GrafanaTarget {
    Objects.requireNonNull(url, "url");
    dashboardUid = dashboardUid == null ? Optional.empty() : dashboardUid;
    panelId = panelId == null ? Optional.empty() : panelId;
    token = token == null ? TokenSource.none() : token;
    timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
  }
}
