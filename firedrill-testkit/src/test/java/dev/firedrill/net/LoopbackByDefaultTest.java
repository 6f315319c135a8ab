package dev.firedrill.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.alerting.receiver.ReceiverConfig;
import dev.firedrill.alerting.receiver.WebhookReceiver;
import dev.firedrill.time.Clock;
import org.junit.jupiter.api.Test;

/** The servers firedrill opens listen on the loopback address unless told otherwise. */
class LoopbackByDefaultTest {

  @Test
  void aServerAndTheWebhookReceiverListenOnLoopbackByDefault() {
    try (LoopbackHttpServer server = LoopbackHttpServer.builder("default").startOrThrow("default");
        WebhookReceiver receiver =
            WebhookReceiver.start(ReceiverConfig.defaults(), Clock.system())) {
      assertThat(server.address().getAddress().isLoopbackAddress()).isTrue();
      assertThat(server.address().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
      assertThat(receiver.address().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
    }
  }
}
