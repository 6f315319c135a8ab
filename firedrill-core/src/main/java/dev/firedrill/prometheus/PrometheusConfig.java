package dev.firedrill.prometheus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.firedrill.time.Durations;
import java.io.IOException;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The intervals of a Prometheus configuration that bound how fast an alert can fire: the global
 * scrape and evaluation intervals (Prometheus's defaults, 1m and 1m, when unset), the global
 * {@code rule_query_offset} (Prometheus 3; 0s when unset) by which rules evaluate in the past, and
 * each scrape job's own interval (the global one when the job sets none).
 */
public record PrometheusConfig(Duration scrapeInterval, Duration evaluationInterval, Duration queryOffset,
    Map<String, Duration> jobScrapeIntervals) {

  public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(1);
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

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
    return parse(yaml, new PrometheusConfig(DEFAULT_INTERVAL, DEFAULT_INTERVAL, Duration.ZERO, Map.of()));
  }

  /**
   * As {@link #parse(String)}, with {@code unstated}'s global values for those the YAML does not
   * state. Prometheus renders every global default in {@code /api/v1/status/config}; other servers
   * (VictoriaMetrics with {@code -promscrape.config}) publish a scrape config without
   * {@code evaluation_interval} or {@code rule_query_offset}, whose truth is then the ruler's, as the
   * experiment file states it.
   */
  public static PrometheusConfig parse(String yaml, PrometheusConfig unstated) {
    JsonNode root;
    try {
      root = YAML.readTree(yaml == null ? "" : yaml);
    } catch (IOException e) {
      throw new IllegalArgumentException("Prometheus config is not YAML: " + OneLine.shortened(e instanceof com.fasterxml.jackson.core.JsonProcessingException j ? j.getOriginalMessage() : e.getMessage(), 120));
    }
    if (root == null || root.isMissingNode() || root.isNull()) {
      root = YAML.createObjectNode();
    }
    if (!root.isObject()) {
      throw new IllegalArgumentException("Prometheus config is not a YAML mapping");
    }
    JsonNode global = root.path("global");
    Duration scrape = duration(global.get("scrape_interval"), "global.scrape_interval", unstated.scrapeInterval());
    Duration evaluation = duration(global.get("evaluation_interval"), "global.evaluation_interval",
        unstated.evaluationInterval());
    Duration offset = duration(global.get("rule_query_offset"), "global.rule_query_offset", unstated.queryOffset());
    Map<String, Duration> jobs = new LinkedHashMap<>();
    JsonNode scrapeConfigs = root.path("scrape_configs");
    for (int i = 0; i < scrapeConfigs.size(); i++) {
      JsonNode job = scrapeConfigs.get(i);
      JsonNode name = job.get("job_name");
      if (name == null || !name.isTextual()) {
        throw new IllegalArgumentException("Prometheus config: scrape_configs[" + i + "].job_name is missing");
      }
      jobs.put(name.asText(), duration(job.get("scrape_interval"),
          "scrape_configs[" + i + "] (job " + name.asText() + ").scrape_interval", scrape));
    }
    return new PrometheusConfig(scrape, evaluation, offset, jobs);
  }

  private static Duration duration(JsonNode node, String field, Duration fallback) {
    if (node == null || node.isNull()) {
      return fallback;
    }
    try {
      return Durations.parse(node.asText());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Prometheus config: " + field + ": " + e.getMessage());
    }
  }
}
