package dev.firedrill.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.alerting.AlertmanagerClient;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.testing.StubHttpServer;
import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With a drill's context current (as the trace sink makes it on the drill thread), the Prometheus,
 * Alertmanager and proxy admin clients send its {@code traceparent} and {@code baggage}; outside a
 * drill they send neither.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OutgoingTraceHeadersTest {

  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String SPAN = "00f067aa0ba902b7";
  private static final Context DRILL =
      Context.root()
          .with(
              Span.wrap(
                  SpanContext.create(
                      TRACE, SPAN, TraceFlags.getSampled(), TraceState.getDefault())))
          .with(Baggage.builder().put("chaos.experiment.id", "drill-42").build());

  @Test
  void prometheusQueriesCarryTheDrillsContext() throws Exception {
    try (StubHttpServer prometheus = StubHttpServer.start()) {
      prometheus.respondJson(
          200, "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}");
      HttpPrometheusClient client =
          new HttpPrometheusClient(prometheus.url(""), Duration.ofSeconds(5), Optional.empty());

      try (Scope ignored = DRILL.makeCurrent()) {
        client.query("up");
      }
      assertCarriesTheDrill(prometheus.lastRequest().headers());

      client.query("up");
      assertCarriesNothing(prometheus.lastRequest().headers());
    }
  }

  @Test
  void alertmanagerRequestsCarryTheDrillsContext() throws Exception {
    try (StubHttpServer alertmanager = StubHttpServer.start()) {
      alertmanager.respondJson(200, "[]");
      AlertmanagerClient client =
          new AlertmanagerClient(alertmanager.url(""), Duration.ofSeconds(5), Optional.empty());

      try (Scope ignored = DRILL.makeCurrent()) {
        client.alerts();
      }
      assertCarriesTheDrill(alertmanager.lastRequest().headers());

      client.alerts();
      assertCarriesNothing(alertmanager.lastRequest().headers());
    }
  }

  @Test
  void proxyAdminRequestsCarryTheDrillsContext() throws Exception {
    try (StubHttpServer admin = StubHttpServer.start()) {
      admin.respondJson(200, "{}");
      ProxyAdminClient client = new ProxyAdminClient("http-toxic", Optional.of("admin-token"));

      try (Scope ignored = DRILL.makeCurrent()) {
        client.post(admin.url("/proxies/payments/toxics"), "{}");
        assertCarriesTheDrill(admin.lastRequest().headers());
        client.delete(admin.url("/proxies/payments/toxics/latency"));
        assertCarriesTheDrill(admin.lastRequest().headers());
      }
      client.get(admin.url("/proxies"));
      assertCarriesNothing(admin.lastRequest().headers());
    }
  }

  private static void assertCarriesTheDrill(Map<String, String> headers) {
    assertThat(headers)
        .containsEntry("traceparent", "00-" + TRACE + "-" + SPAN + "-01")
        .containsEntry("baggage", "chaos.experiment.id=drill-42");
  }

  private static void assertCarriesNothing(Map<String, String> headers) {
    assertThat(headers).doesNotContainKeys("traceparent", "baggage");
  }
}
