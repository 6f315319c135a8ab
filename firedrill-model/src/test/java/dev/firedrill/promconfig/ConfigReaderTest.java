package dev.firedrill.promconfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.yaml.Problem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The one prometheus.yml reader: Prometheus's defaults, skipped or refused keys, problems with
 * their line.
 */
class ConfigReaderTest {

  private static ConfigReader.Result<Problem> lenient(String yaml, GlobalConfig unstated) {
    return ConfigReader.read(
        "prometheus.yml",
        Path.of("/etc/prometheus"),
        yaml,
        ConfigReader.Keys.PROMETHEUS,
        unstated,
        Problem::new);
  }

  @Test
  void whatPrometheusRendersIsReadAndTheKeysOutsideTheModelAreSkipped() {
    // As /api/v1/status/config answers: every default rendered, and keys the model does not hold.
    Config config =
        lenient(
                """
        global:
          scrape_interval: 15s
          scrape_timeout: 5s
          scrape_protocols: [OpenMetricsText1.0.0, PrometheusText0.0.4]
          evaluation_interval: 30s
          rule_query_offset: 10s
          external_labels: {cluster: eu-1}
          metric_name_validation_scheme: utf8
        runtime: {gogc: 75}
        alerting:
          alertmanagers:
          - follow_redirects: true
            scheme: https
            timeout: 10s
            api_version: v2
            static_configs:
            - targets: [am:9093]
        rule_files: [rules/*.yml, /abs/r.yml]
        scrape_configs:
        - job_name: api
          honor_timestamps: true
          scrape_interval: 5s
          metrics_path: /metrics
          scheme: https
          static_configs:
          - targets: ["http://x:80"]
            labels: {service.name: checkout}
          relabel_configs: [{source_labels: [__address__], target_label: instance}]
        - job_name: node
          kubernetes_sd_configs: [{role: node}]
        """,
                GlobalConfig.DEFAULTS)
            .config();
    assertThat(config.global())
        .isEqualTo(
            new GlobalConfig(
                Duration.ofSeconds(15),
                Duration.ofSeconds(5),
                Duration.ofSeconds(30),
                Duration.ofSeconds(10),
                LabelSet.of("cluster", "eu-1")));
    assertThat(config.scrapeConfigs())
        .containsExactly(
            new ScrapeConfig(
                "api",
                Duration.ofSeconds(5),
                Duration.ofSeconds(5),
                "/metrics",
                "https",
                false,
                List.of(
                    new StaticConfig(
                        List.of("http://x:80"), LabelSet.of("service.name", "checkout")))),
            new ScrapeConfig(
                "node",
                Duration.ofSeconds(15),
                Duration.ofSeconds(5),
                "/metrics",
                "http",
                false,
                List.of()));
    assertThat(config.ruleFiles()).containsExactly("/etc/prometheus/rules/*.yml", "/abs/r.yml");
    assertThat(config.alertmanagers())
        .extracting(AlertmanagerConfig::scheme)
        .containsExactly("https");
  }

  @Test
  void prometheussDefaultsOrTheCallersFillWhatIsUnstated() {
    assertThat(lenient("", GlobalConfig.DEFAULTS).config().global())
        .isEqualTo(GlobalConfig.DEFAULTS);
    assertThat(GlobalConfig.DEFAULTS)
        .isEqualTo(
            new GlobalConfig(
                Duration.ofMinutes(1),
                Duration.ofSeconds(10),
                Duration.ofMinutes(1),
                Duration.ZERO,
                LabelSet.EMPTY));
    GlobalConfig unstated =
        new GlobalConfig(
            Duration.ofSeconds(5),
            Duration.ofSeconds(10),
            Duration.ofSeconds(20),
            Duration.ofSeconds(30),
            LabelSet.EMPTY);
    // The 10s timeout shrinks to the 5s interval, as Prometheus shrinks its default.
    assertThat(lenient("scrape_configs: [{job_name: a}]", unstated).config().global())
        .isEqualTo(
            new GlobalConfig(
                Duration.ofSeconds(5),
                Duration.ofSeconds(5),
                Duration.ofSeconds(20),
                Duration.ofSeconds(30),
                LabelSet.EMPTY));
    assertThat(
            lenient("global: {rule_query_offset: 0s}", unstated)
                .config()
                .global()
                .ruleQueryOffset())
        .isZero();
  }

  @Test
  void everyProblemIsCollectedWithItsLineAndNoConfigIsGiven() {
    ConfigReader.Result<Problem> read =
        lenient(
            """
        global:
          scrape_interval: 0s
          rule_query_offset: soon
        scrape_configs:
          - job_name: a
            scrape_interval: 1s
            scrape_timeout: 2s
          - job_name: a
            honor_labels: maybe
        rule_files: ["[.yml"]
        """,
            GlobalConfig.DEFAULTS);
    assertThat(read.config()).isNull();
    assertThat(read.textProblems()).isEmpty();
    assertThat(read.problems())
        .extracting(Problem::toString)
        .containsExactly(
            "prometheus.yml: /global/scrape_interval: expected a duration above zero such as 15s, 1m30s or 1h,"
                + " found \"0s\" (line 2, column 3)",
            "prometheus.yml: /global/rule_query_offset: expected a duration such as 0s, 30s or 1m, found \"soon\""
                + " (line 3, column 3)",
            "prometheus.yml: /scrape_configs/0/scrape_timeout: 2s is longer than the scrape interval 1s (line 7, column 5)",
            "prometheus.yml: /scrape_configs/1/honor_labels: expected true or false, found \"maybe\" (line 9, column 5)",
            "prometheus.yml: /scrape_configs/1/job_name: job name \"a\" is already the job name of /scrape_configs/0"
                + " (line 8, column 5)",
            "prometheus.yml: /rule_files/0: syntax error in pattern \"[.yml\" (an unclosed or empty [ ], a reversed"
                + " range, or a trailing \\) (line 10, column 14)");
  }

  @Test
  void malformedTextAndDuplicateKeysAreTheTextsProblemsAndStopTheReading() {
    ConfigReader.Result<Problem> read =
        lenient("global:\n  scrape_interval: 1s\n  scrape_interval: x\n", GlobalConfig.DEFAULTS);
    assertThat(read.config()).isNull();
    assertThat(read.problems()).isEmpty();
    assertThat(read.textProblems())
        .extracting(Problem::toString)
        .containsExactly(
            "prometheus.yml: /global/scrape_interval: duplicate key; each key may appear once (line 3, column 3)");
  }

  @Test
  void onlyTheModelsKeysLessTheRefusedOnesForAStrictReader() {
    ConfigReader.Keys strict =
        new ConfigReader.Keys.Only(
            "the test", Map.of(ConfigReader.Section.GLOBAL, Set.of("rule_query_offset")));
    ConfigReader.Result<Problem> read =
        ConfigReader.read(
            "p.yml",
            null,
            "global: {rule_query_offset: 1m}\nruntime: {}\n",
            strict,
            GlobalConfig.DEFAULTS,
            Problem::new);
    assertThat(read.problems())
        .extracting(Problem::pointer, Problem::message)
        .containsExactly(
            tuple(
                "/runtime",
                "not supported by the test (supported keys: global, scrape_configs, rule_files, alerting)"),
            tuple(
                "/global/rule_query_offset",
                "not supported by the test (supported keys:"
                    + " scrape_interval, scrape_timeout, evaluation_interval, external_labels)"));
  }
}
