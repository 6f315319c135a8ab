package dev.firedrill.testing;

import dev.firedrill.lab.stack.LocalPrometheus;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.prometheus.QueryResult;
import dev.firedrill.time.Clock;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Assertions;

/**
 * {@link LocalPrometheus} for tests: the real binary, skipped when it is missing, or failing the
 * test when {@code CI=true}; plus {@link #awaitQuery} to wait for what a test expects.
 */
public final class RealPrometheus implements AutoCloseable {

  public static final String JOB = LocalPrometheus.JOB;
  private static final Duration POLL = Duration.ofMillis(200);

  private final LocalPrometheus prometheus;
  private final HttpPrometheusClient client;

  private RealPrometheus(LocalPrometheus prometheus) {
    this.prometheus = prometheus;
    this.client =
        new HttpPrometheusClient(prometheus.url(), Duration.ofSeconds(5), Optional.empty());
  }

  /** Starts Prometheus scraping {@code targets} ({@code host:port}) and waits until it is ready. */
  public static RealPrometheus start(List<String> targets) {
    return start(targets, List.of());
  }

  /** As {@link #start(List)}, with rule files given as YAML text. */
  public static RealPrometheus start(List<String> targets, List<String> ruleFiles) {
    return start(binary(), targets, ruleFiles);
  }

  /** As {@link #start(List, List)}, with the Prometheus of {@code pair}. */
  public static RealPrometheus start(
      Stacks.Pair pair, List<String> targets, List<String> ruleFiles) {
    return start(pair.prometheus(), targets, ruleFiles);
  }

  /** As {@link #start(List, List)}, with the Prometheus binary {@code binary}. */
  public static RealPrometheus start(Path binary, List<String> targets, List<String> ruleFiles) {
    return new RealPrometheus(LocalPrometheus.start(binary, targets, ruleFiles, Clock.system()));
  }

  public URI url() {
    return prometheus.url();
  }

  /** A client for this server with a 5 s timeout and no token. */
  public HttpPrometheusClient client() {
    return client;
  }

  public Path logFile() {
    return prometheus.logFile();
  }

  public String logTail(int lines) {
    return prometheus.logTail(lines);
  }

  /**
   * Polls every 200 ms until {@code until} accepts the result, and returns that result. Query
   * errors count as "not yet". Fails the test with the last result or error when {@code timeout}
   * passes.
   */
  public QueryResult awaitQuery(String promql, Predicate<QueryResult> until, Duration timeout) {
    Clock clock = Clock.system();
    long deadline = clock.nanoTime() + timeout.toNanos();
    Object last = "no answer yet";
    while (true) {
      try {
        QueryResult result = client.query(promql);
        if (until.test(result)) {
          return result;
        }
        last = result;
      } catch (PrometheusException e) {
        last = e.getMessage();
      }
      if (clock.nanoTime() - deadline > 0) {
        return Assertions.fail(
            "query \""
                + promql
                + "\" did not reach the expected result within "
                + timeout.toMillis()
                + "ms; last: "
                + last);
      }
      try {
        clock.sleep(POLL);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Assertions.fail("interrupted while waiting for query \"" + promql + "\"");
      }
    }
  }

  public void stop() {
    prometheus.stop();
  }

  public void kill() {
    prometheus.kill();
  }

  public void restart() {
    prometheus.restart();
  }

  public boolean isRunning() {
    return prometheus.isRunning();
  }

  @Override
  public void close() {
    prometheus.close();
  }

  /** The binary, or a skipped test (a failed one when {@code CI=true}) that says how to get it. */
  static Path binary() {
    return RequiredBinary.find("prometheus", "FIREDRILL_PROMETHEUS", "prometheus");
  }
}
