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
}
