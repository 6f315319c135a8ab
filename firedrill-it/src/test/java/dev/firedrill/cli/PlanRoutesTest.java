package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.lab.stack.LocalAlertmanager;
import dev.firedrill.lab.stack.LocalPrometheus;
import dev.firedrill.lab.stack.TempDirs;
import dev.firedrill.net.Loopback;
import dev.firedrill.testing.Stacks;
import dev.firedrill.time.Clock;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code plan} against a real Prometheus 3.5 and Alertmanager 0.33: the expected alerts' routes
 * come from the tree Alertmanager serves on {@code /api/v2/status}, UTF-8 matchers and rule labels
 * included, next to a matcher only the classic parser reads.
 */
class PlanRoutesTest {

  private static final String RULES =
      """
      groups:
        - name: drill
          interval: 1s
          rules:
            - alert: CheckoutDown
              expr: vector(1) > 2
              for: 5s
              labels: {team: payments, "service.name": checkout}
      """;

  private static final String ALERTMANAGER =
      """
      route:
        receiver: default
        group_by: ["service.name"]
        routes:
          - matchers: ['"service.name"="checkout"', 'team=~"pay.*"']
            receiver: checkout
          - matchers: [legacy=a b]
            receiver: legacy
      receivers: [{name: default}, {name: checkout}, {name: legacy}]
      """;

  @Test
  void planRoutesTheExpectedAlertsThroughAlertmanager033sTree() throws Exception {
    Stacks.Pair stack = Stacks.current();
    Clock clock = Clock.system();
    Path dir = TempDirs.create("firedrill-plan-routes-");
    try {
      Path rules = Files.writeString(dir.resolve("rules.yml"), RULES);
      Path promDir = Files.createDirectories(dir.resolve("prometheus"));
      Path amDir = Files.createDirectories(dir.resolve("alertmanager"));
      String promConfig = LocalPrometheus.global() + "rule_files: ['" + rules + "']\n";
      try (LocalPrometheus prometheus =
              LocalPrometheus.start(
                  stack.prometheus(), Loopback.freePort(), promConfig, promDir, false, clock);
          LocalAlertmanager alertmanager =
              LocalAlertmanager.start(
                  stack.alertmanager(), Loopback.freePort(), ALERTMANAGER, amDir, false, clock)) {
        Path experiment =
            Files.writeString(
                dir.resolve("plan.yaml"),
                """
            id: plan-routes
            title: plan reads Alertmanager 0.33's routes
            prometheus: {url: '%s', timeout: 2s}
            alertmanager: {url: '%s'}
            steady_state:
              interval: 1s
              slis: [{name: up, query: 'vector(1)', min: 1}]
            hypothesis:
              recovery: 30s
              alerts:
                - {alert: CheckoutDown, within: 30s, receiver: checkout}
                - {alert: CheckoutDown, within: 30s, receiver: legacy}
            method:
              duration: 1m
              faults: [{kind: cpu-burn, workers: 1, ttl: 2m}]
            abort:
              rules: [{sli: up, below: 1, for: 2}]
            blast_radius: {traffic_share: 1%%, max_duration: 5m, max_workers: 1}
            """
                    .formatted(prometheus.url(), alertmanager.url()));

        CliRun run = CliRun.of("plan", experiment.toString());

        assertThat(run.exit()).as(run.describe()).isZero();
        // Alertmanager serves legacy=a b back as legacy="a b", which both parsers read alike: no
        // warning.
        assertThat(run.out())
            .as(run.describe())
            .doesNotContain("routing: warning")
            .doesNotContain("routing: not checked")
            .contains("alert CheckoutDown: firing within 30s; floor ")
            .contains("; routes to checkout\n")
            .contains(
                "; routes to checkout, not the expected legacy: the drill will report it misrouted\n");
      }
    } finally {
      TempDirs.delete(dir);
    }
  }
}
