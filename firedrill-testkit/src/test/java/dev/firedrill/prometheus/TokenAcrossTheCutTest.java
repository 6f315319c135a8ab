package dev.firedrill.prometheus;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.testing.StubHttpServer;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A Prometheus (or a proxy in front of it) that echoes the request's token in an error body, the
 * token straddling the 200 characters a message keeps: it is redacted before the body is cut, so
 * not even its first characters reach the message (and the journal, console and spans after it).
 * Grafana's answers too: its rules' refusal and its data-source proxy's 403 were cut first, and the
 * token's first characters before the cut were printed.
 */
class TokenAcrossTheCutTest {

  private static final String TOKEN = "tok3n-abcdefghijklmnopqrstuvwxyz-0123456789";

  @Test
  void aTokenEchoedAcrossTheCutIsRedactedWhole() {
    try (StubHttpServer prometheus = StubHttpServer.start()) {
      prometheus.respond(500, "text/plain", "x".repeat(190) + " Bearer " + TOKEN + " refused");
      HttpPrometheusClient client =
          new HttpPrometheusClient(prometheus.url(""), Duration.ofSeconds(5), Optional.of(TOKEN));

      assertThatThrownBy(() -> client.query("up"))
          .isInstanceOf(PrometheusException.class)
          .hasMessageContaining(" Bearer <r")
          .hasMessageNotContaining(TOKEN.substring(0, 5));
    }
  }

  @Test
  void aTokenEchoedAcrossTheCutOfGrafanasRulesRefusalIsRedactedWhole() {
    try (StubHttpServer grafana = StubHttpServer.start()) {
      grafana.respond(500, "text/plain", "x".repeat(190) + " Bearer " + TOKEN + " refused");
      HttpPrometheusClient client =
          new HttpPrometheusClient(
              grafana.url("/api/prometheus/grafana"), Duration.ofSeconds(5), Optional.of(TOKEN));

      assertThatThrownBy(client::grafanaRuleDetails)
          .isInstanceOf(PrometheusException.class)
          .hasMessageContaining(" Bearer <r")
          .hasMessageNotContaining(TOKEN.substring(0, 5));
    }
  }

  @Test
  void aTokenEchoedAcrossTheCutOfGrafanasProxyRefusalIsRedactedWhole() {
    try (StubHttpServer grafana = StubHttpServer.start()) {
      grafana.respond(
          403,
          "text/plain",
          "non allow-listed" + "x".repeat(170) + " Bearer " + TOKEN + " refused");
      HttpPrometheusClient client =
          new HttpPrometheusClient(
              grafana.url("/api/datasources/proxy/uid/prom"),
              Duration.ofSeconds(5),
              Optional.of(TOKEN));

      assertThatThrownBy(client::rules)
          .isInstanceOf(PrometheusException.class)
          .hasMessageContaining("data-source proxy")
          .hasMessageContaining(" Bearer <r")
          .hasMessageNotContaining(TOKEN.substring(0, 5));
    }
  }
}
