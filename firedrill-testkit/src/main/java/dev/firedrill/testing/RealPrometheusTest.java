package dev.firedrill.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.prometheus.PrometheusException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The kit's lifecycle: stop mid-run, restart, close, rule files, start failures. */
class RealPrometheusTest {

  @Test
  void stopRestartAndCloseWithRules() throws Exception {
    String rules =
        """
        groups:
          - name: demo
            rules:
              - record: demo:answer
                expr: vector(42)
        """;
    Path dir;
    try (SyntheticService exporter = SyntheticService.start();
        RealPrometheus prometheus =
            RealPrometheus.start(List.of(exporter.address()), List.of(rules))) {
      dir = prometheus.logFile().getParent();
      prometheus.awaitQuery("demo:answer", Results.valueNear(42, 0), Duration.ofSeconds(15));
      prometheus.awaitQuery("up{job=\"demo\"}", Results.valueNear(1, 0), Duration.ofSeconds(15));

      prometheus.stop();
      assertThat(prometheus.isRunning()).isFalse();
      assertThatThrownBy(() -> prometheus.client().query("up"))
          .isInstanceOf(PrometheusException.class)
          .hasMessage(
              "cannot reach Prometheus at "
                  + prometheus.url()
                  + " (connection refused) for query \"up\"");

      prometheus.restart();
      prometheus.awaitQuery("demo:answer", Results.valueNear(42, 0), Duration.ofSeconds(15));
    }
    assertThat(dir).doesNotExist();
  }

  @Test
  void startFailureIncludesTheLogTail() {
    assertThatThrownBy(
            () ->
                RealPrometheus.start(
                    List.of("127.0.0.1:1"), List.of("groups: [this is not a rule group")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("exited with status")
        .hasMessageContaining("prometheus.log, tail:")
        .hasMessageContaining("rules-0.yml");
  }

  @Test
  void closeIsIdempotentAndBounded() {
    RealPrometheus prometheus = RealPrometheus.start(List.of());
    Path dir = prometheus.logFile().getParent();
    assertThat(Files.isDirectory(dir)).isTrue();
    prometheus.kill();
    prometheus.close();
    prometheus.close();
    assertThat(dir).doesNotExist();
  }
}
