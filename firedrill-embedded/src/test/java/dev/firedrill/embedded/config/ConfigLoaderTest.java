package dev.firedrill.embedded.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.promconfig.AlertmanagerConfig;
import dev.firedrill.promconfig.Config;
import dev.firedrill.promconfig.GlobalConfig;
import dev.firedrill.promconfig.ScrapeConfig;
import dev.firedrill.promconfig.StaticConfig;
import dev.firedrill.promql.model.LabelSet;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigLoaderTest {

  private static final Path FILE = Path.of("prometheus.yml");

  private static Config parse(String yaml) {
    return ConfigLoader.parse(FILE, yaml);
  }

  @Test
  void theLabsConfigLoads() {
    Path file = Path.of("fixtures/lab/prometheus.yml");
    Config config = ConfigLoader.load(file);
    assertThat(config.global())
        .isEqualTo(
            new GlobalConfig(
                Duration.ofSeconds(1),
                Duration.ofSeconds(1),
                Duration.ofSeconds(1),
                Duration.ZERO,
                LabelSet.EMPTY));
    assertThat(config.scrapeConfigs())
        .extracting(ScrapeConfig::jobName)
        .containsExactly("checkout", "payments", "proxy", "load", "firedrill");
    assertThat(config.scrapeConfigs().get(1))
        .isEqualTo(
            new ScrapeConfig(
                "payments",
                Duration.ofSeconds(1),
                Duration.ofSeconds(1),
                "/metrics",
                "http",
                false,
                List.of(new StaticConfig(List.of("127.0.0.1:18092"), LabelSet.EMPTY))));
    Path dir = file.toAbsolutePath().getParent();
    assertThat(config.ruleFiles())
        .containsExactly(
            dir.resolve("recording-rules.yml").toString(),
            dir.resolve("../../alert-rules/*.yml").normalize().toString());
    assertThat(config.alertmanagers())
        .containsExactly(
            new AlertmanagerConfig(
                List.of(new StaticConfig(List.of("127.0.0.1:19093"), LabelSet.EMPTY)),
                "/",
                "http",
                Duration.ofSeconds(10),
                "v2"));
  }

  @Test
  void anEmptyFileIsPrometheussDefaults() {
    Config config = parse("");
    assertThat(config.global())
        .isEqualTo(
            new GlobalConfig(
                Duration.ofMinutes(1),
                Duration.ofSeconds(10),
                Duration.ofMinutes(1),
                Duration.ZERO,
                LabelSet.EMPTY));
    assertThat(config.scrapeConfigs()).isEmpty();
    assertThat(config.ruleFiles()).isEmpty();
    assertThat(config.alertmanagers()).isEmpty();
  }

  @Test
  void jobsInheritGlobalIntervalsAndTheDefaultTimeoutShrinksToTheInterval() {
    Config config =
        parse(
            """
        global:
          scrape_interval: 1m30s
          evaluation_interval: 1d
          external_labels: {cluster: eu-1, replica: "1"}
        scrape_configs:
          - job_name: a
            scrape_interval: 5s
            metrics_path: /prom
            honor_labels: true
            static_configs:
              - targets: [localhost:9100, "[::1]:9100"]
                labels: {team: sre}
          - job_name: b
        """);
    assertThat(config.global())
        .isEqualTo(
            new GlobalConfig(
                Duration.ofSeconds(90),
                Duration.ofSeconds(10),
                Duration.ofDays(1),
                Duration.ZERO,
                LabelSet.of("cluster", "eu-1", "replica", "1")));
    assertThat(config.scrapeConfigs())
        .containsExactly(
            new ScrapeConfig(
                "a",
                Duration.ofSeconds(5),
                Duration.ofSeconds(5),
                "/prom",
                "http",
                true,
                List.of(
                    new StaticConfig(
                        List.of("localhost:9100", "[::1]:9100"), LabelSet.of("team", "sre")))),
            new ScrapeConfig(
                "b",
                Duration.ofSeconds(90),
                Duration.ofSeconds(10),
                "/metrics",
                "http",
                false,
                List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      textBlock =
          """
      remote_write: []                                        | prometheus.yml: /remote_write: not supported by the embedded Prometheus (supported keys: global, scrape_configs, rule_files, alerting)
      'global: {rule_query_offset: 1m}'                       | prometheus.yml: /global/rule_query_offset: not supported by the embedded Prometheus (supported keys: scrape_interval, scrape_timeout, evaluation_interval, external_labels)
      'global: {query_log_file: q.log}'                       | prometheus.yml: /global/query_log_file: not supported by the embedded Prometheus (supported keys: scrape_interval, scrape_timeout, evaluation_interval, external_labels)
      'scrape_configs: [{job_name: a, relabel_configs: []}]'  | prometheus.yml: /scrape_configs/0/relabel_configs: not supported by the embedded Prometheus (supported keys: job_name, scrape_interval, scrape_timeout, metrics_path, scheme, honor_labels, static_configs)
      'scrape_configs: [{job_name: a, file_sd_configs: []}]'  | prometheus.yml: /scrape_configs/0/file_sd_configs: not supported by the embedded Prometheus (supported keys: job_name, scrape_interval, scrape_timeout, metrics_path, scheme, honor_labels, static_configs)
      'scrape_configs: [{job_name: a, static_configs: [{targets: [x:1], source: s}]}]' | prometheus.yml: /scrape_configs/0/static_configs/0/source: not supported by the embedded Prometheus (supported keys: targets, labels)
      'alerting: {alert_relabel_configs: []}'                 | prometheus.yml: /alerting/alert_relabel_configs: not supported by the embedded Prometheus (supported keys: alertmanagers)
      'alerting: {alertmanagers: [{basic_auth: {}}]}'         | prometheus.yml: /alerting/alertmanagers/0/basic_auth: not supported by the embedded Prometheus (supported keys: static_configs, path_prefix, scheme, timeout, api_version)
      'scrape_configs: [{job_name: a, scheme: https}]'        | prometheus.yml: /scrape_configs/0/scheme: "https" not supported by the embedded Prometheus (supported: http)
      'alerting: {alertmanagers: [{scheme: https}]}'          | prometheus.yml: /alerting/alertmanagers/0/scheme: "https" not supported by the embedded Prometheus (supported: http)
      'alerting: {alertmanagers: [{api_version: v1}]}'        | prometheus.yml: /alerting/alertmanagers/0/api_version: "v1" not supported by the embedded Prometheus (supported: v2)
      'scrape_configs: [{scrape_interval: 1s}]'               | prometheus.yml: /scrape_configs/0: job_name is required
      'scrape_configs: [{job_name: ""}]'                      | prometheus.yml: /scrape_configs/0/job_name: expected a job name, found an empty string
      'scrape_configs: [{job_name: a}, {job_name: a}]'        | prometheus.yml: /scrape_configs/1/job_name: job name "a" is already the job name of /scrape_configs/0
      'global: {scrape_interval: 15}'                         | prometheus.yml: /global/scrape_interval: expected a duration above zero such as 15s, 1m30s or 1h, found "15"
      'global: {evaluation_interval: 0s}'                     | prometheus.yml: /global/evaluation_interval: expected a duration above zero such as 15s, 1m30s or 1h, found "0s"
      'global: {scrape_interval: 5s, scrape_timeout: 6s}'     | prometheus.yml: /global/scrape_timeout: 6s is longer than the scrape interval 5s
      'scrape_configs: [{job_name: a, scrape_interval: 1s, scrape_timeout: 2s}]' | prometheus.yml: /scrape_configs/0/scrape_timeout: 2s is longer than the scrape interval 1s
      'scrape_configs: [{job_name: a, metrics_path: metrics}]' | prometheus.yml: /scrape_configs/0/metrics_path: expected a path starting with /, found "metrics"
      'scrape_configs: [{job_name: a, honor_labels: yes}]'    | prometheus.yml: /scrape_configs/0/honor_labels: expected true or false, found "yes"
      'scrape_configs: [{job_name: a, static_configs: [{targets: ["http://x:80"]}]}]' | prometheus.yml: /scrape_configs/0/static_configs/0/targets/0: expected host:port, found "http://x:80"
      'scrape_configs: [{job_name: a, static_configs: [{targets: [x:1], labels: {1a: b}}]}]' | prometheus.yml: /scrape_configs/0/static_configs/0/labels/1a: invalid label name (expected [a-zA-Z_][a-zA-Z0-9_]*)
      'scrape_configs: [{job_name: a, static_configs: [{labels: {__metrics_path__: /x}}]}]' | prometheus.yml: /scrape_configs/0/static_configs/0/labels/__metrics_path__: labels starting with __ steer relabeling, which the embedded Prometheus does not run
      'global: {external_labels: [a]}'                        | prometheus.yml: /global/external_labels: expected a mapping of label names to values
      'global: {external_labels: {a: {b: c}}}'                | prometheus.yml: /global/external_labels/a: expected a string
      'scrape_configs: {job_name: a}'                         | prometheus.yml: /scrape_configs: expected a list
      'global: 1m'                                            | prometheus.yml: /global: expected a mapping with the keys scrape_interval, scrape_timeout, evaluation_interval, external_labels
      'rule_files: ["rules/[.yml"]'                           | prometheus.yml: /rule_files/0: syntax error in pattern "[.yml" (an unclosed or empty [ ], a reversed range, or a trailing \\)
      '- a'                                                   | prometheus.yml: /: expected a mapping with the keys global, scrape_configs, rule_files, alerting
      """)
  void refusesWithTheFileAndTheFullKeyPath(String yaml, String message) {
    assertThatThrownBy(() -> parse(yaml)).isInstanceOf(ConfigException.class).hasMessage(message);
  }

  @Test
  void duplicateKeysAndMalformedYamlNameTheirLine() {
    assertThatThrownBy(() -> parse("global:\n  scrape_interval: 1s\n  scrape_interval: 2s\n"))
        .hasMessage(
            "prometheus.yml: /global/scrape_interval: duplicate key; each key may appear once (line 3, column 3)");
    assertThatThrownBy(() -> parse("global: [\n"))
        .hasMessageStartingWith("prometheus.yml: /global: malformed YAML: ");
  }

  @Test
  void aMissingFileNamesIt() {
    assertThatThrownBy(() -> ConfigLoader.load(Path.of("no/such/prometheus.yml")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("no/such/prometheus.yml: cannot read: no such file");
  }
}
