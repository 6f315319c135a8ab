package dev.firedrill.experiment;

import dev.firedrill.http.HttpSettings;
import dev.firedrill.promconfig.GlobalConfig;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the SLIs and guards are measured, and how to reach it; secrets are only named there. The
 * rules and alerts are read from {@code rulesUrl} when given (vmalert, Thanos Ruler, a Mimir
 * ruler), with the same HTTP settings; {@code intervals} stand in for a server that does not
 * publish {@code /api/v1/status/config}.
 */
public record PrometheusSource(
    URI url, Duration timeout, HttpSettings http, Optional<URI> rulesUrl, Intervals intervals) {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  public PrometheusSource {
    Objects.requireNonNull(url, "url");
    timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
    http = http == null ? HttpSettings.none() : http;
    rulesUrl = rulesUrl == null ? Optional.empty() : rulesUrl;
    intervals = intervals == null ? Intervals.DEFAULTS : intervals;
  }

  /**
   * A Prometheus with at most a bearer token, the default intervals and no separate rules source.
   */
  public PrometheusSource(URI url, Duration timeout, TokenSource bearerToken) {
    this(
        url,
        timeout,
        HttpSettings.bearer(bearerToken == null ? Optional.empty() : bearerToken.secret()),
        Optional.empty(),
        Intervals.DEFAULTS);
  }

  /**
   * {@code prometheus.scrape_interval}, {@code evaluation_interval} and {@code query_offset}: used
   * only when the server has no configuration to read them from. Prometheus's own defaults, as the
   * model of prometheus.yml has them.
   */
  public record Intervals(
      Duration scrapeInterval, Duration evaluationInterval, Duration queryOffset) {

    public static final Intervals DEFAULTS =
        new Intervals(
            GlobalConfig.DEFAULT_SCRAPE_INTERVAL,
            GlobalConfig.DEFAULT_EVALUATION_INTERVAL,
            GlobalConfig.DEFAULT_RULE_QUERY_OFFSET);

    public Intervals {
      scrapeInterval = scrapeInterval == null ? DEFAULTS.scrapeInterval : scrapeInterval;
      evaluationInterval =
          evaluationInterval == null ? DEFAULTS.evaluationInterval : evaluationInterval;
      queryOffset = queryOffset == null ? DEFAULTS.queryOffset : queryOffset;
    }
  }
}
