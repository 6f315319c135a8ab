package dev.firedrill.promconfig;

import dev.firedrill.promql.model.LabelSet;
import java.time.Duration;
import java.util.Objects;

/**
 * The {@code global} block. Prometheus's defaults ({@code DefaultGlobalConfig} in its config.go)
 * are written here once: scrape_interval 1m, scrape_timeout 10s (shrunk to a shorter interval),
 * evaluation_interval 1m, rule_query_offset 0.
 */
public record GlobalConfig(
    Duration scrapeInterval,
    Duration scrapeTimeout,
    Duration evaluationInterval,
    Duration ruleQueryOffset,
    LabelSet externalLabels) {

  public static final Duration DEFAULT_SCRAPE_INTERVAL = Duration.ofMinutes(1);
  public static final Duration DEFAULT_SCRAPE_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_EVALUATION_INTERVAL = Duration.ofMinutes(1);
  public static final Duration DEFAULT_RULE_QUERY_OFFSET = Duration.ZERO;

  /** What a prometheus.yml without a {@code global} block means. */
  public static final GlobalConfig DEFAULTS =
      new GlobalConfig(
          DEFAULT_SCRAPE_INTERVAL,
          DEFAULT_SCRAPE_TIMEOUT,
          DEFAULT_EVALUATION_INTERVAL,
          DEFAULT_RULE_QUERY_OFFSET,
          LabelSet.EMPTY);

  public GlobalConfig {
    Objects.requireNonNull(scrapeInterval, "scrapeInterval");
    Objects.requireNonNull(scrapeTimeout, "scrapeTimeout");
    Objects.requireNonNull(evaluationInterval, "evaluationInterval");
    Objects.requireNonNull(ruleQueryOffset, "ruleQueryOffset");
    Objects.requireNonNull(externalLabels, "externalLabels");
  }
}
