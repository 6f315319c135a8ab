package dev.firedrill.embedded.config;

import dev.firedrill.promql.model.LabelSet;
import java.time.Duration;
import java.util.Objects;

/** The {@code global} block; Prometheus's defaults are 1m, 10s and 1m. */
public record GlobalConfig(Duration scrapeInterval, Duration scrapeTimeout, Duration evaluationInterval,
    LabelSet externalLabels) {

  public static final Duration DEFAULT_SCRAPE_INTERVAL = Duration.ofMinutes(1);
  public static final Duration DEFAULT_SCRAPE_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_EVALUATION_INTERVAL = Duration.ofMinutes(1);

  public GlobalConfig {
    Objects.requireNonNull(scrapeInterval, "scrapeInterval");
    Objects.requireNonNull(scrapeTimeout, "scrapeTimeout");
    Objects.requireNonNull(evaluationInterval, "evaluationInterval");
    Objects.requireNonNull(externalLabels, "externalLabels");
  }
}
