package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.alerting.Detection;
import dev.firedrill.alerting.Floor;
import dev.firedrill.alerting.Floors;
import dev.firedrill.alerting.RuleBook;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.lab.stack.LocalPrometheus;
import dev.firedrill.lab.stack.ManagedProcess;
import dev.firedrill.net.Loopback;
import dev.firedrill.testing.MinimalExperiment;
import dev.firedrill.testing.Stacks;
import dev.firedrill.time.Clock;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The new stacks' real binaries (Debian unstable's, unpacked by {@code bin/install-deps --tests}
 * under {@code ~/.cache/firedrill/debs}): Prometheus 3.5's {@code rule_query_offset} reaches the
 * floor, and VictoriaMetrics without {@code -vmalert.proxyURL} is named as the cause of an empty
 * rule list, its missing config answered with the experiment's intervals.
 */
class RealBackendsTest {

  private static final Duration READY = Duration.ofSeconds(30);

  @TempDir Path dir;

  /**
   * The minimal experiment against {@code url} expecting {@code alert}; its intervals answer a
   * server without a config.
   */
  private static Experiment experiment(String url, String alert) {
    return MinimalExperiment.load(
        MinimalExperiment.with(
            """
        prometheus:
          url: %s
          scrape_interval: 10s
          evaluation_interval: 20s
          query_offset: 30s
        """
                .formatted(url),
            """
        hypothesis:
          alerts:
            - alert: %s
              within: 5m
        """
                .formatted(alert)));
  }

  @Test
  void prometheus3sRuleQueryOffsetIsReadFromItsConfigIntoTheFloor() throws Exception {
    Path binary = Stacks.current().prometheus();
    int port = Loopback.freePort();
    Files.writeString(
        dir.resolve("rules.yml"),
        """
        groups:
          - name: drill
            rules:
              - alert: InstanceDown
                expr: up == 0
                for: 1m
        """);
    String config =
        """
        global:
          scrape_interval: 5s
          evaluation_interval: 5s
          rule_query_offset: 45s
        rule_files: [%s]
        """
            .formatted(dir.resolve("rules.yml"));
    try (LocalPrometheus prometheus =
        LocalPrometheus.start(
            binary,
            port,
            config,
            Files.createDirectories(dir.resolve("prometheus")),
            false,
            Clock.system())) {
      URI url = prometheus.url();
      Experiment experiment = experiment(url.toString(), "InstanceDown");

      RuleBook book =
          Wiring.alertStack(experiment, Map.of(), Optional.empty(), Optional.empty()).rules();

      assertThat(book.intervalsText())
          .isEqualTo(
              "intervals: scrape 5s, evaluation 5s, query offset 45s, from the"
                  + " server's /api/v1/status/config");
      // for: 1m plus the 45s offset; the reason's wording before the offset belongs to Floors
      Floor floor = Floors.of(book.alert("InstanceDown").orElseThrow(), book);
      assertThat(floor.value()).isEqualTo(Duration.ofSeconds(105));
      assertThat(floor.text())
          .startsWith("105.0s (for: 1m, after the first bad sample")
          .endsWith(", plus query_offset 45s)");
    }
  }

  @Test
  void victoriaMetricsWithoutVmalertIsNamedAndItsMissingConfigIsNoFailure() throws Exception {
    Path binary = Stacks.victoriaMetrics().victoriaMetrics();
    int port = Loopback.freePort();
    URI url = URI.create("http://127.0.0.1:" + port);
    try (ManagedProcess vm =
        ManagedProcess.start(
            "victoria-metrics",
            List.of(
                binary.toString(),
                "-httpListenAddr=127.0.0.1:" + port,
                "-storageDataPath=" + dir.resolve("vm")),
            dir.resolve("vm.log"),
            url.resolve("/-/ready"),
            READY,
            false,
            Clock.system())) {
      Experiment experiment = experiment(url.toString(), "CheckoutErrors");

      RuleBook book =
          Wiring.alertStack(experiment, Map.of(), Optional.empty(), Optional.empty()).rules();
      Detection detection =
          Wiring.detection(
                  experiment, Wiring.prometheus(experiment, Map.of()), Map.of(), Optional.empty())
              .orElseThrow();

      // VictoriaMetrics answers /api/v1/status/config with success and an empty yaml
      assertThat(book.intervalsText())
          .isEqualTo(
              "intervals: scrape 10s, evaluation 20s, query offset 30s, from the"
                  + " experiment file, the server has no /api/v1/status/config (it answered an empty yaml)");
      assertThat(detection.preflight())
          .contains(
              new Detection.PreflightProblem(
                  true,
                  "hypothesis.alerts names"
                      + " CheckoutErrors, but GET /api/v1/rules answered no rule group at all; VictoriaMetrics at "
                      + url
                      + " proxies no vmalert, so it lists no rules: start it with -vmalert.proxyURL set to vmalert's URL, or set"
                      + " prometheus.rules_url to vmalert"));
    }
  }
}
