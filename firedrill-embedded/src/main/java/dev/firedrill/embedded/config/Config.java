package dev.firedrill.embedded.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The part of a prometheus.yml the embedded Prometheus runs.
 *
 * @param ruleFiles the {@code rule_files} globs, resolved against the config file's directory;
 *     {@link RuleFileGlob#expand} lists the files, as Prometheus does on every (re)load
 */
public record Config(Path file, GlobalConfig global, List<ScrapeConfig> scrapeConfigs, List<String> ruleFiles,
    List<AlertmanagerConfig> alertmanagers) {

  public Config {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(global, "global");
    scrapeConfigs = List.copyOf(scrapeConfigs);
    ruleFiles = List.copyOf(ruleFiles);
    alertmanagers = List.copyOf(alertmanagers);
  }
}
