package dev.firedrill.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.testing.Poll;
import dev.firedrill.testing.SlowLoris;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Hundreds of clients sending a byte a second against a server of four request threads (as the
 * receiver and the proxy's admin API are): requests from others are answered meanwhile, and the
 * server cuts the slow ones once their request has had {@value LoopbackHttpServer#REQUEST_SECONDS}
 * s to arrive. Four such clients stalled these servers when the JDK read headers on request
 * threads.
 */
class SlowClientsTest {

  @Test
  void threeHundredSlowClientsNeitherStallTheServerNorStayConnected() throws Exception {
    try (LoopbackHttpServer server =
            LoopbackHttpServer.builder("slow-clients")
                .threads(4)
                .route(
                    Route.exact("/ok")
                        .get(
                            exchange -> LoopbackHttpServer.send(exchange, 200, "text/plain", "ok")))
                .start();
        SlowLoris loris =
            SlowLoris.start(
                server.address(),
                300,
                Duration.ofSeconds(LoopbackHttpServer.REQUEST_SECONDS + 6))) {
      assertThat(System.getProperty("sun.net.httpserver.maxReqTime"))
          .as("the JDK's request timeout, set before its first server")
          .isEqualTo(String.valueOf(LoopbackHttpServer.REQUEST_SECONDS));
      HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
      HttpRequest ok =
          HttpRequest.newBuilder(server.url().resolve("/ok"))
              .timeout(Duration.ofSeconds(2))
              .build();
      for (int i = 0; i < 10; i++) {
        assertThat(client.send(ok, HttpResponse.BodyHandlers.ofString()).body())
            .as("request %d among %d slow connections", i, loris.connections())
            .isEqualTo("ok");
      }
      assertThat(loris.cutByServer()).as("slow clients cut before their time").isZero();

      Poll.until(
          "the server to cut every slow connection",
          Duration.ofSeconds(LoopbackHttpServer.REQUEST_SECONDS + 5),
          () -> loris.cutByServer() == loris.connections() ? Optional.of(true) : Optional.empty());
      assertThat(loris.cutByServer()).isEqualTo(300);
      assertThat(client.send(ok, HttpResponse.BodyHandlers.ofString()).body()).isEqualTo("ok");
    }
  }
}
