package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * markers.metrics through the CLI: a busy listen address stops the run before anything is injected.
 */
class MetricsWiringTest {

  @TempDir Path dir;

  private static final String EXPERIMENT =
      """
      id: busy-metrics
      title: The metrics endpoint cannot start
      prometheus:
        url: http://127.0.0.1:%d
      steady_state:
        interval: 1s
        slis:
          - name: error_ratio
            query: vector(0)
            max: 0.01
      hypothesis:
        description: nothing runs
        recovery: 1s
      method:
        duration: 2s
        faults:
          - kind: cpu-burn
            workers: 1
            ttl: 1m
      abort:
        rules:
          - sli: error_ratio
            above: 0.05
      blast_radius:
        traffic_share: 5%%
        max_duration: 1m
      markers:
        metrics:
          listen: 127.0.0.1:%d
          scrape_wait: 1s
      """;

  @Test
  void aBusyListenAddressIsOneLineNamingTheKeyAndTheAddressWithExitTwo() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      Path file = Files.writeString(dir.resolve("busy.yaml"), EXPERIMENT.formatted(port, port));

      CliRun run =
          CliRun.of("run", file.toString(), "--journal", dir.resolve("journal.json").toString());

      assertThat(run.exit()).isEqualTo(2);
      assertThat(run.err())
          .isEqualTo(
              "markers.metrics.listen 127.0.0.1:"
                  + port
                  + ": cannot listen there (Address already in use; expected a free address such as 127.0.0.1:19466)"
                  + System.lineSeparator());
      assertThat(run.out()).doesNotContain("inject");
      assertThat(dir.resolve("journal.json")).doesNotExist();
    }
  }
}
