package dev.firedrill.promconfig;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/** One {@code scrape_configs} job, its intervals already defaulted from {@code global}. */
public record ScrapeConfig(
    String jobName,
    Duration scrapeInterval,
    Duration scrapeTimeout,
    String metricsPath,
    String scheme,
    boolean honorLabels,
    List<StaticConfig> staticConfigs) {

  public ScrapeConfig {
    Objects.requireNonNull(jobName, "jobName");
    Objects.requireNonNull(scrapeInterval, "scrapeInterval");
    Objects.requireNonNull(scrapeTimeout, "scrapeTimeout");
    Objects.requireNonNull(metricsPath, "metricsPath");
    Objects.requireNonNull(scheme, "scheme");
    staticConfigs = List.copyOf(staticConfigs);
  }
}
