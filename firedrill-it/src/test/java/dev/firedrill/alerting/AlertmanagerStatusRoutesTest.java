package dev.firedrill.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.alerting.routes.RouteTree;
import dev.firedrill.lab.stack.LocalAlertmanager;
import dev.firedrill.lab.stack.TempDirs;
import dev.firedrill.net.Loopback;
import dev.firedrill.testing.RequiredBinary;
import dev.firedrill.testing.Stacks;
import dev.firedrill.time.Clock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The route tree {@code plan} reads from a running Alertmanager's {@code /api/v2/status} is the one
 * the file gives: real Alertmanager 0.33 with UTF-8 matchers and label names, and 0.25 with classic
 * ones.
 */
class AlertmanagerStatusRoutesTest {

  @Test
  void readsTheTreeFromAlertmanager033sStatus() throws Exception {
    Path binary = Stacks.unpacked("prometheus-alertmanager", "0.3", "prometheus-alertmanager");
    Path file = Path.of("fixtures/testdata/routes/utf8.yml");
    RouteTree served = served(binary, Files.readString(file));
    RouteTree read = RouteTree.load(file);
    assertThat(served.render()).isEqualTo(read.render());
    List<Map<String, String>> alerts =
        List.of(
            Map.of(
                "service.name",
                "checkout",
                "deployment.environment",
                "prod",
                "k8s.pod name",
                "api-7"),
            Map.of("service.name", "checkout", "été", "oui"),
            Map.of("a{b}", "c,d"),
            Map.of("team", "payments", "severity", "critical", "tab\there", "éA"),
            Map.of("k8s.pod name", "web-2"),
            Map.of("team", "payments"));
    for (Map<String, String> labels : alerts) {
      assertThat(served.receivers(labels)).as(labels.toString()).isEqualTo(read.receivers(labels));
    }
    assertThat(served.receivers(alerts.get(0))).containsExactly("checkout-prod", "checkout-api");
    assertThat(served.receivers(alerts.get(3))).containsExactly("escapes");
    assertThat(served.root().options().groupBy()).containsExactly("alertname", "service.name");
    assertThat(served.warnings()).isEmpty();
  }

  @Test
  void readsTheTreeFromAlertmanager025sStatus() throws Exception {
    Path binary =
        RequiredBinary.find(
            "prometheus-alertmanager", "FIREDRILL_ALERTMANAGER", "prometheus-alertmanager");
    Path file = Path.of("fixtures/testdata/routes/rich.yml");
    RouteTree served = served(binary, Files.readString(file));
    RouteTree read = RouteTree.load(file);
    assertThat(served.render()).isEqualTo(read.render());
    Map<String, String> page = Map.of("severity", "page", "team", "payments", "env", "prod");
    assertThat(served.receivers(page)).containsExactly("audit", "payments-pager");
  }

  private static RouteTree served(Path binary, String config) throws Exception {
    Path dir = TempDirs.create("firedrill-am-status-");
    try (LocalAlertmanager alertmanager =
        LocalAlertmanager.start(binary, Loopback.freePort(), config, dir, false, Clock.system())) {
      return new AlertmanagerClient(alertmanager.url(), Duration.ofSeconds(5), Optional.empty())
          .routes();
    } finally {
      TempDirs.delete(dir);
    }
  }
}
