package dev.firedrill.prometheus;

import dev.firedrill.promconfig.Config;
import dev.firedrill.promconfig.ConfigReader;
import dev.firedrill.promconfig.GlobalConfig;
import dev.firedrill.promconfig.ScrapeConfig;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.yaml.Problem;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The intervals of a Prometheus configuration that bound how fast an alert can fire: the global
 * scrape and evaluation intervals, the global {@code rule_query_offset} (Prometheus 3) by which
 * rules evaluate in the past, and each scrape job's own interval (the global one when the job sets
 * none). Read by the model's {@link ConfigReader}, which holds Prometheus's defaults ({@link
 * GlobalConfig#DEFAULTS}).
 */
public record PrometheusConfig(
    Duration scrapeInterval,
    Duration evaluationInterval,
    Duration queryOffset,
    Map<String, Duration> jobScrapeIntervals) {

  /** A configuration that states nothing: Prometheus's defaults. */
  public static final PrometheusConfig DEFAULTS =
      new PrometheusConfig(
          GlobalConfig.DEFAULT_SCRAPE_INTERVAL,
          GlobalConfig.DEFAULT_EVALUATION_INTERVAL,
          GlobalConfig.DEFAULT_RULE_QUERY_OFFSET,
          Map.of());

  private static final String SOURCE = "Prometheus config";

  public PrometheusConfig {
    Objects.requireNonNull(scrapeInterval, "scrapeInterval");
    Objects.requireNonNull(evaluationInterval, "evaluationInterval");
    Objects.requireNonNull(queryOffset, "queryOffset");
    jobScrapeIntervals = Collections.unmodifiableMap(new LinkedHashMap<>(jobScrapeIntervals));
  }

  /** The job's scrape interval; the global one for a job the config does not name. */
  public Duration scrapeInterval(String job) {
    return jobScrapeIntervals.getOrDefault(job, scrapeInterval);
  }

  /**
   * Reads {@code yaml} (as {@code /api/v1/status/config} returns it, or a prometheus.yml).
   *
   * @throws IllegalArgumentException naming the field when the YAML or a duration is not usable
   */
  public static PrometheusConfig parse(String yaml) {
    return parse(yaml, DEFAULTS);
  }

  /**
   * As {@link #parse(String)}, with {@code unstated}'s global values for those the YAML does not
   * state. Prometheus renders every global default in {@code /api/v1/status/config}; other servers
   * (VictoriaMetrics with {@code -promscrape.config}) publish a scrape config without {@code
   * evaluation_interval} or {@code rule_query_offset}, whose truth is then the ruler's, as the
   * experiment file states it. Keys the model does not hold are skipped: the endpoint renders them
   * all.
   */
  public static PrometheusConfig parse(String yaml, PrometheusConfig unstated) {
    GlobalConfig defaults =
        new GlobalConfig(
            unstated.scrapeInterval(),
            GlobalConfig.DEFAULT_SCRAPE_TIMEOUT,
            unstated.evaluationInterval(),
            unstated.queryOffset(),
            LabelSet.EMPTY);
    ConfigReader.Result<Problem> read =
        ConfigReader.read(
            SOURCE,
            null,
            yaml == null ? "" : yaml,
            ConfigReader.Keys.PROMETHEUS,
            defaults,
            Problem::new);
    if (read.config() == null) {
      Problem first = read.all().get(0);
      throw new IllegalArgumentException(
          SOURCE + ": " + field(first.pointer()) + ": " + first.message());
    }
    Config config = read.config();
    Map<String, Duration> jobs = new LinkedHashMap<>();
    for (ScrapeConfig job : config.scrapeConfigs()) {
      jobs.put(job.jobName(), job.scrapeInterval());
    }
    GlobalConfig global = config.global();
    return new PrometheusConfig(
        global.scrapeInterval(), global.evaluationInterval(), global.ruleQueryOffset(), jobs);
  }

  /**
   * A JSON pointer as this message has always named fields: {@code
   * scrape_configs[0].scrape_interval}.
   */
  private static String field(String pointer) {
    if (pointer.isEmpty()) {
      return "the document";
    }
    StringBuilder out = new StringBuilder();
    for (String segment : pointer.substring(1).split("/", -1)) {
      String key = segment.replace("~1", "/").replace("~0", "~");
      if (key.chars().allMatch(Character::isDigit) && !key.isEmpty()) {
        out.append('[').append(key).append(']');
      } else {
        out.append(out.length() == 0 ? "" : ".").append(key);
      }
    }
    return out.toString();
  }
}
