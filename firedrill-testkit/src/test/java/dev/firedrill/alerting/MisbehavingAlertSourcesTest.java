package dev.firedrill.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.testing.Misbehaviour;
import dev.firedrill.testing.Poll;
import dev.firedrill.testing.StubHttpServer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What detection reads alerts from, misbehaving: Alertmanager's {@code /api/v2/alerts} and
 * Grafana-managed alerting's Prometheus-compatible {@code /api/prometheus/grafana/api/v1/alerts}.
 * Each read ends within its 1 s timeout (the endless body's: at its 32 MiB limit, within 8 s), plus
 * a loaded machine's slack, with one line naming the server, never a hang, an endless read or a
 * stack trace; the drill's detection turns such a read into an unknown expectation (inconclusive
 * observability), as {@code DetectionDrillTest} and {@code MisbehavingAlertSourceDrillTest} assert.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MisbehavingAlertSourcesTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(1);

  /** The read's timeout, and 4 s for a loaded machine: a bound, not a measurement. */
  private static final Duration LONGEST = TIMEOUT.plusSeconds(4);

  /**
   * The endless body's timeout: long enough that its 32 MiB arrive first even on a loaded machine
   * (at 1 s they did not, and the read ended at its deadline instead of at its size limit).
   */
  private static final Duration ENDLESS_TIMEOUT = Duration.ofSeconds(8);

  enum Source {
    ALERTMANAGER("[]", "{\"alerts\":[]}", "Alertmanager at ") {
      @Override
      Callable<Object> read(StubHttpServer stub, Duration timeout) {
        AlertmanagerClient client = new AlertmanagerClient(stub.url(""), timeout, Optional.empty());
        return client::alerts;
      }
    },
    GRAFANA(
        "{\"status\":\"success\",\"data\":{\"alerts\":[]}}",
        "{\"status\":\"success\",\"data\":{\"groups\":[]}}",
        "/api/prometheus/grafana") {
      @Override
      Callable<Object> read(StubHttpServer stub, Duration timeout) {
        HttpPrometheusClient client =
            new HttpPrometheusClient(
                stub.url("/api/prometheus/grafana"), timeout, Optional.empty());
        return client::alerts;
      }
    };

    final String healthy;
    final String wrongShape;
    final String names;

    Source(String healthy, String wrongShape, String names) {
      this.healthy = healthy;
      this.wrongShape = wrongShape;
      this.names = names;
    }

    abstract Callable<Object> read(StubHttpServer stub, Duration timeout);
  }

  static Stream<Arguments> cases() {
    return Misbehaviour.against(Source.values());
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void aMisbehavingAlertSourceFailsOneReadInOneLineInTime(Source source, Misbehaviour m)
      throws Exception {
    try (StubHttpServer stub = StubHttpServer.start()) {
      stub.respondJson(200, source.healthy);
      Duration timeout = m == Misbehaviour.ENDLESS_BODY ? ENDLESS_TIMEOUT : TIMEOUT;
      Callable<Object> read = source.read(stub, timeout);
      read.call(); // healthy first
      m.on(stub);

      long start = System.nanoTime();
      Throwable failure = catchThrowable(read::call);
      Duration took = Duration.ofNanos(System.nanoTime() - start);

      assertThat(took).isLessThan(timeout.plusSeconds(4));
      assertThat(failure)
          .isInstanceOfAny(
              AlertmanagerException.class, dev.firedrill.prometheus.PrometheusException.class);
      assertThat(failure.getMessage()).contains(source.names).doesNotContain("\n");
      if (m == Misbehaviour.ENDLESS_BODY) {
        assertThat(failure.getMessage()).contains("body larger than 32 MiB");
        // 32 MiB read, plus what the socket buffers on the way hold (the stub's front splices each
        // connection, so there are four).
        assertThat(stub.bytesSent()).isLessThan(64L * 1024 * 1024);
      }
      if (m == Misbehaviour.GONE_AND_BACK) {
        Poll.until(
            "the alert source back on its port",
            Duration.ofSeconds(10),
            () -> Optional.of(read.call()));
      }
    }
  }

  /** A runbook or dashboard link ({@code check_links}) whose page never ends still has a status. */
  @org.junit.jupiter.api.Test
  void aLinkWhosePageNeverEndsIsCheckedByItsStatusAlone() {
    try (StubHttpServer page = StubHttpServer.start()) {
      page.endlessBody("<html><body>", "<p>runbook</p>");
      LiveAlertStack stack =
          new LiveAlertStack(
              new HttpPrometheusClient(page.url(""), TIMEOUT, Optional.empty()),
              Optional.empty(),
              Optional.empty());

      long start = System.nanoTime();
      Optional<Integer> status = stack.linkStatus(page.url("/runbook").toString());
      Duration took = Duration.ofNanos(System.nanoTime() - start);

      assertThat(status).contains(200);
      assertThat(took).isLessThan(LONGEST);
    }
  }

  @ParameterizedTest
  @EnumSource(Source.class)
  void aValidEnvelopeOfTheWrongShapeIsOneLineNamingTheServer(Source source) throws Exception {
    try (StubHttpServer stub = StubHttpServer.start()) {
      stub.respondJson(200, source.wrongShape);

      Throwable failure = catchThrowable(source.read(stub, TIMEOUT)::call);

      assertThat(failure)
          .isInstanceOfAny(
              AlertmanagerException.class, dev.firedrill.prometheus.PrometheusException.class);
      assertThat(failure.getMessage()).contains(source.names).doesNotContain("\n");
    }
  }
}
