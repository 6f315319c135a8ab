package dev.firedrill.promconfig;

import java.util.List;
import java.util.Objects;

/**
 * The part of a prometheus.yml firedrill reads, Prometheus's defaults applied: what the embedded
 * Prometheus runs, what {@code rules lint} takes its intervals and rule files from, and what a
 * drill reads from {@code /api/v1/status/config}.
 *
 * @param source what the text came from (a file name), for messages
 * @param ruleFiles the {@code rule_files} globs, resolved against the config file's directory when
 *     it has one; {@link RuleFileGlob#expand} lists the files, as Prometheus does on every (re)load
 */
public record Config(
    String source,
    GlobalConfig global,
    List<ScrapeConfig> scrapeConfigs,
    List<String> ruleFiles,
    List<AlertmanagerConfig> alertmanagers) {

  public Config {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(global, "global");
    scrapeConfigs = List.copyOf(scrapeConfigs);
    ruleFiles = List.copyOf(ruleFiles);
    alertmanagers = List.copyOf(alertmanagers);
  }
}
