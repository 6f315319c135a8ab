package dev.firedrill.experiment;

import dev.firedrill.http.HttpSettings;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The Grafana that gets the drill's annotation: on a dashboard (and panel) when given, otherwise an
 * organization annotation. Its credentials are named by {@code http}, never written in it; {@code
 * orgId}, when given, is sent as {@code X-Grafana-Org-Id} so the annotation lands in that
 * organization rather than the token's or the user's current one.
 */
public record GrafanaTarget(
    URI url,
    Optional<String> dashboardUid,
    Optional<Integer> panelId,
    HttpSettings http,
    Duration timeout,
    Optional<Long> orgId) {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

  public GrafanaTarget {
    Objects.requireNonNull(url, "url");
    dashboardUid = dashboardUid == null ? Optional.empty() : dashboardUid;
    panelId = panelId == null ? Optional.empty() : panelId;
    http = http == null ? HttpSettings.none() : http;
    timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
    orgId = orgId == null ? Optional.empty() : orgId;
  }

  /** In the token's own organization. */
  public GrafanaTarget(
      URI url,
      Optional<String> dashboardUid,
      Optional<Integer> panelId,
      HttpSettings http,
      Duration timeout) {
    this(url, dashboardUid, panelId, http, timeout, Optional.empty());
  }

  /** A Grafana reached with at most a bearer token. */
  public GrafanaTarget(
      URI url,
      Optional<String> dashboardUid,
      Optional<Integer> panelId,
      TokenSource token,
      Duration timeout) {
    this(
        url,
        dashboardUid,
        panelId,
        HttpSettings.bearer(token == null ? Optional.empty() : token.secret()),
        timeout,
        Optional.empty());
  }
}
