package dev.firedrill.marker.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.net.LoopbackHttpServer;
import dev.firedrill.net.Route;
import io.opentelemetry.context.Context;
import org.junit.jupiter.api.Test;

/**
 * A Pushgateway's refusal in one printable line: its body's first line, control characters made
 * visible, then cut to 200 code points, never inside a character. Cut on {@code char}s before, this
 * body (its 200th char the first half of an emoji) printed a lone surrogate and the raw escape that
 * clears a terminal.
 */
class PushgatewayClientTest {

  @Test
  void aRefusalsBodyIsQuotedThenCutOnCodePoints() throws Exception {
    String body =
        "\u001b[2J" + "a".repeat(195) + "\uD83D\uDE00" + "b".repeat(100) + "\nsecond line";
    try (LoopbackHttpServer server =
        LoopbackHttpServer.builder("pushgateway-test")
            .route(
                Route.prefix("/metrics")
                    .on(
                        "PUT",
                        exchange -> LoopbackHttpServer.send(exchange, 500, "text/plain", body)))
            .start()) {
      PushgatewayClient client = new PushgatewayClient(PushgatewayGroup.of(server.url(), "drill"));

      assertThatThrownBy(() -> client.put(new byte[0], Context.root()))
          .isInstanceOf(PushgatewayClient.PushException.class)
          .satisfies(
              e -> {
                String message = e.getMessage();
                assertThat(message)
                    .endsWith(" answered 500: \\x1b[2J" + "a".repeat(193) + "...")
                    .doesNotContain("\u001b")
                    .doesNotContain("second line");
                assertThat(message.codePoints().filter(c -> c >= 0xD800 && c <= 0xDFFF))
                    .as("lone surrogates")
                    .isEmpty();
              });
    }
  }
}
