package dev.firedrill.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.proxy.FaultProxy;
import dev.firedrill.proxy.ProxyConfig;
import dev.firedrill.testing.RealPrometheus;
import dev.firedrill.testing.Results;
import dev.firedrill.testing.SyntheticService;
import dev.firedrill.time.Clock;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * exporter-down as the real Prometheus sees it (1 s scrape), through a fault proxy in front of a
 * metrics server: with the toxic on the target is down and its series absent within seconds; after
 * revert the target is up again.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ExporterDownPrometheusTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String UP = "up{job=\"" + RealPrometheus.JOB + "\"}";
  private static final String ABSENT =
      "absent(" + SyntheticService.REQUESTS + "{job=\"" + RealPrometheus.JOB + "\"})";

  @Test
  void theTargetGoesDownAndItsSeriesAbsentThenComesBackAfterRevert() throws Exception {
    InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    try (SyntheticService exporter = SyntheticService.start();
        FaultProxy proxy =
            FaultProxy.start(
                new ProxyConfig(
                    "payments-metrics",
                    ProxyConfig.Mode.HTTP,
                    any,
                    URI.create("http://" + exporter.address()),
                    any,
                    Optional.empty(),
                    Optional.empty()));
        RealPrometheus prometheus =
            RealPrometheus.start(List.of("127.0.0.1:" + proxy.listenAddress().getPort()))) {
      prometheus.awaitQuery(UP, Results.valueNear(1, 0), WAIT);
      prometheus.awaitQuery(SyntheticService.REQUESTS, Results.nonEmptyVector(), WAIT);
      assertThat(prometheus.client().query(ABSENT)).matches(Results.emptyVector());

      BlastRadius radius = new BlastRadius(0.01, Duration.ofMinutes(5), 0.05, 1, 1);
      FaultContext context =
          new FaultContext(
              "exporter-down-real",
              radius,
              Duration.ofSeconds(10),
              ProcessTable.system(),
              WorkerLauncher.current(),
              Clock.system(),
              Map.of(),
              Optional.empty());
      Fault fault =
          Faults.create(
              new FaultSpec.ExporterDown(
                  proxy.adminUrl(),
                  "payments-metrics",
                  null,
                  Optional.of(Duration.ofMinutes(1)),
                  Optional.empty()),
              context,
              0);
      fault.inject();
      try {
        long injected = System.nanoTime();
        prometheus.awaitQuery(UP, Results.valueNear(0, 0), WAIT);
        prometheus.awaitQuery(ABSENT, Results.valueNear(1, 0), WAIT);
        assertThat((System.nanoTime() - injected) / 1e9)
            .as("seconds until the series were absent")
            .isLessThan(5);
      } finally {
        fault.revert();
      }
      assertThat(fault.verify().reverted()).isTrue();

      prometheus.awaitQuery(UP, Results.valueNear(1, 0), WAIT);
      prometheus.awaitQuery(ABSENT, Results.emptyVector(), WAIT);
    }
  }
}
