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
 * Each read ends within its 1 s timeout (plus a loaded machine's slack) with one line naming the
 * server, never a hang, an endless read or a stack trace; the drill's detection turns such a read
 * into an unreadable stack (inconclusive observability), as {@code DetectionDrillTest} asserts with
 * {@code ScriptedAlerts.unreadable}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MisbehavingAlertSourcesTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(1);

  /** The read's timeout, and 4 s for a loaded machine: a bound, not a measurement. */
  private static final Duration LONGEST = TIMEOUT.plusSeconds(4);

  enum Source {
    ALERTMANAGER("[]", "{\"alerts\":[]}", "Alertmanager at ") {
      @Override
      Callable<Object> read(StubHttpServer stub) {
        AlertmanagerClient client = new AlertmanagerClient(stub.url(""), TIMEOUT, Optional.empty());
        return client::alerts;
      }
    },
    GRAFANA(
        "{\"status\":\"success\",\"data\":{\"alerts\":[]}}",
        "{\"status\":\"success\",\"data\":{\"groups\":[]}}",
        "/api/prometheus/grafana") {
      @Override
      Callable<Object> read(StubHttpServer stub) {
        HttpPrometheusClient client =
            new HttpPrometheusClient(
                stub.url("/api/prometheus/grafana"), TIMEOUT, Optional.empty());
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

    abstract Callable<Object> read(StubHttpServer stub);
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
      Callable<Object> read = source.read(stub);
      read.call(); // healthy first
      m.on(stub);

      long start = System.nanoTime();
      Throwable failure = catchThrowable(read::call);
      Duration took = Duration.ofNanos(System.nanoTime() - start);

      assertThat(took).isLessThan(LONGEST);
      assertThat(failure)
          .isInstanceOfAny(
              AlertmanagerException.class, dev.firedrill.prometheus.PrometheusException.class);
      assertThat(failure.getMessage()).contains(source.names).doesNotContain("\n");
      if (m == Misbehaviour.ENDLESS_BODY) {
        assertThat(failure.getMessage()).contains("body larger than 32 MiB");
        assertThat(stub.bytesSent()).isLessThan(48L * 1024 * 1024);
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

      Throwable failure = catchThrowable(source.read(stub)::call);

      assertThat(failure)
          .isInstanceOfAny(
              AlertmanagerException.class, dev.firedrill.prometheus.PrometheusException.class);
      assertThat(failure.getMessage()).contains(source.names).doesNotContain("\n");
    }
  }
}
