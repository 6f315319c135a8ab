package dev.firedrill.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.embedded.alertmanager.config.AlertmanagerConfig;
import dev.firedrill.embedded.config.ConfigLoader;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusAlert;
import dev.firedrill.prometheus.PrometheusAlertsApi;
import dev.firedrill.prometheus.PrometheusClient;
import dev.firedrill.prometheus.QueryResult;
import dev.firedrill.prometheus.RuleGroup;
import dev.firedrill.promql.eval.Compat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The simulation keeps the live Prometheus's phases: its groups' offsets and its scrapes'. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LivePhasesTest {

  private static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");

  /** Where the lab keeps its copy of the recording rules, as a lab in a temp dir would. */
  private static final String LIVE_RULES = "/tmp/simphase-exp/lab/recording-rules.yml";

  private static final class Live implements PrometheusClient, PrometheusAlertsApi {
    @Override
    public QueryResult query(String promql) {
      assertThat(promql).isEqualTo("timestamp(up)");
      return new QueryResult.Vector(
          List.of(
              new QueryResult.Sample(
                  Map.of("job", "checkout", "instance", "127.0.0.1:40001"), T0, 1796304256.437),
              new QueryResult.Sample(Map.of("job", "payments"), T0, 1796304255.912),
              new QueryResult.Sample(Map.of("job", "payments"), T0, 1796304256.912)));
    }

    @Override
    public List<RuleGroup> rules() {
      return List.of(
          new RuleGroup("lab-sli", LIVE_RULES, Duration.ofSeconds(1), List.of()),
          new RuleGroup(
              "lab-alerts",
              "/tmp/lab-1/alert-rules/lab-alerts.yml",
              Duration.ofSeconds(1),
              List.of()));
    }

    @Override
    public List<PrometheusAlert> alerts() {
      return List.of();
    }

    @Override
    public String config() {
      return "";
    }
  }

  @Test
  void readsEachGroupsFileAndEachJobsLatestScrape() throws Exception {
    LivePhases live = LivePhases.read(new Live());

    assertThat(live.ruleFile("/tmp/firedrill-simulate-1/lab/recording-rules.yml", "lab-sli"))
        .contains(LIVE_RULES);
    assertThat(live.ruleFile("/elsewhere/lab-alerts.yml", "lab-alerts"))
        .contains("/tmp/lab-1/alert-rules/lab-alerts.yml");
    // A group is its name in a file of the same name: not the same name in another file.
    assertThat(live.ruleFile("/tmp/x/other.yml", "lab-sli")).isEmpty();
    assertThat(live.lastScrapeMs("checkout")).contains(1796304256437L);
    assertThat(live.lastScrapeMs("payments")).contains(1796304256912L);
    assertThat(live.lastScrapeMs("load")).isEmpty();
  }

  /**
   * The lab's recording group, on the path the live Prometheus has it at, evaluates where that
   * major's real binary evaluates a group {@code lab-sli} of {@code LIVE_RULES}: Debian's 2.42 at
   * .907 of each second, Debian's 3.5.3 at .457 (the sample timestamps of its recording rules).
   */
  @Test
  void theRecordingGroupEvaluatesAtTheOffsetTheRealBinaryOfTheModeGivesItsLivePath()
      throws Exception {
    assertThat(recordedAtMsOfSecond(Compat.PROMETHEUS_2)).isEqualTo(907);
    assertThat(recordedAtMsOfSecond(Compat.PROMETHEUS_3)).isEqualTo(457);
  }

  private static long recordedAtMsOfSecond(Compat compat) throws Exception {
    Path config = SimulatedDrillTest.PROMETHEUS;
    LivePhases live =
        new LivePhases(List.of(new LivePhases.Group("lab-sli", LIVE_RULES)), Map.of());
    try (SimulatedStack stack =
        SimulatedStack.start(
            ConfigLoader.load(config),
            Files.readString(config),
            AlertmanagerConfig.load(SimulatedDrillTest.ALERTMANAGER),
            LabModel.lab(),
            T0,
            compat,
            live,
            line -> {})) {
      stack.clock().sleep(Duration.ofSeconds(10));
      QueryResult result =
          new HttpPrometheusClient(stack.prometheusUrl(), Duration.ofSeconds(30), Optional.empty())
              .query("timestamp(service:http_requests:rate5s{service=\"checkout\"})");
      double seconds = ((QueryResult.Vector) result).samples().get(0).value();
      return Math.floorMod(Math.round(seconds * 1000), 1000);
    }
  }
}
