package dev.firedrill.net;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The one server builder over real HTTP on loopback: routing, HEAD, 405, 503 when full, a bounded
 * stop.
 */
class LoopbackHttpServerTest {

  private final HttpClient http = HttpClient.newHttpClient();

  private static void text(HttpExchange exchange, String body) throws IOException {
    try (exchange) {
      LoopbackHttpServer.send(exchange, 200, "text/plain", body);
    }
  }

  private HttpResponse<String> send(URI url, String method) throws Exception {
    return http.send(
        HttpRequest.newBuilder(url)
            .timeout(Duration.ofSeconds(10))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void anExactRouteBeatsAPrefixAndTheLongestPrefixWins() throws Exception {
    try (LoopbackHttpServer server =
        LoopbackHttpServer.builder("test-routes")
            .route(Route.prefix("/a/").get(exchange -> text(exchange, "prefix /a/")))
            .route(Route.prefix("/a/b/").get(exchange -> text(exchange, "prefix /a/b/")))
            .route(Route.exact("/a/b/c").get(exchange -> text(exchange, "exact /a/b/c")))
            .start()) {
      assertThat(server.address().getAddress().isLoopbackAddress()).isTrue();
      assertThat(send(server.url().resolve("/a/x"), "GET").body()).isEqualTo("prefix /a/");
      assertThat(send(server.url().resolve("/a/b/x"), "GET").body()).isEqualTo("prefix /a/b/");
      assertThat(send(server.url().resolve("/a/b/c"), "GET").body()).isEqualTo("exact /a/b/c");
      HttpResponse<String> none = send(server.url().resolve("/b"), "GET");
      assertThat(none.statusCode()).isEqualTo(404);
      assertThat(none.body()).isEqualTo("404 page not found\n");
    }
  }

  @Test
  void headIsAnsweredAsGetWithoutTheBody() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    try (LoopbackHttpServer server =
        LoopbackHttpServer.builder("test-head")
            .route(
                Route.exact("/x")
                    .get(
                        exchange -> {
                          seen.add(exchange.getRequestMethod());
                          exchange.getResponseHeaders().set("X-Seen", "yes");
                          text(exchange, "the body");
                        }))
            .start()) {
      HttpResponse<String> head = send(server.url().resolve("/x"), "HEAD");
      assertThat(head.statusCode()).isEqualTo(200);
      assertThat(head.headers().firstValue("X-Seen")).hasValue("yes");
      assertThat(head.body()).isEmpty();
      assertThat(send(server.url().resolve("/x"), "GET").body()).isEqualTo("the body");
      assertThat(seen).containsExactly("GET", "GET");
    }
  }

  @Test
  void aWrongMethodIs405WithAllowAndTheServersOwnAnswer() throws Exception {
    try (LoopbackHttpServer server =
        LoopbackHttpServer.builder("test-405")
            .route(
                Route.exact("/x")
                    .get(exchange -> text(exchange, "got"))
                    .post(exchange -> text(exchange, "posted")))
            .route(Route.exact("/only-post").post(exchange -> text(exchange, "posted")))
            .refusal(
                (exchange, allowed) -> {
                  try (exchange) {
                    LoopbackHttpServer.send(
                        exchange, 405, "text/plain", "expected one of " + allowed);
                  }
                })
            .start()) {
      HttpResponse<String> delete = send(server.url().resolve("/x"), "DELETE");
      assertThat(delete.statusCode()).isEqualTo(405);
      assertThat(delete.headers().firstValue("Allow")).hasValue("GET, HEAD, POST");
      assertThat(delete.body()).isEqualTo("expected one of [GET, POST]");
      HttpResponse<String> head = send(server.url().resolve("/only-post"), "HEAD");
      assertThat(head.statusCode()).isEqualTo(405);
      assertThat(head.headers().firstValue("Allow")).hasValue("POST");
    }
  }

  @Test
  void theGuardRunsBeforeRoutingAndMayAnswerItself() throws Exception {
    try (LoopbackHttpServer server =
        LoopbackHttpServer.builder("test-guard")
            .guard(
                exchange -> {
                  if (exchange.getRequestHeaders().containsKey("X-Token")) {
                    return true;
                  }
                  try (exchange) {
                    LoopbackHttpServer.send(exchange, 401, "text/plain", "token please");
                  }
                  return false;
                })
            .route(Route.exact("/x").get(exchange -> text(exchange, "in")))
            .start()) {
      assertThat(send(server.url().resolve("/nowhere"), "GET").statusCode()).isEqualTo(401);
      assertThat(send(server.url().resolve("/x"), "POST").statusCode()).isEqualTo(401);
      HttpResponse<String> in =
          http.send(
              HttpRequest.newBuilder(server.url().resolve("/x")).header("X-Token", "t").build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(in.body()).isEqualTo("in");
    }
  }

  @Test
  void aHandlerThatThrowsGetsTheFailureAnswer() throws Exception {
    try (LoopbackHttpServer server =
        LoopbackHttpServer.builder("test-failure")
            .route(
                Route.exact("/boom")
                    .get(
                        exchange -> {
                          throw new IllegalStateException("boom");
                        }))
            .start()) {
      HttpResponse<String> boom = send(server.url().resolve("/boom"), "GET");
      assertThat(boom.statusCode()).isEqualTo(500);
      assertThat(boom.body()).isEqualTo("Internal Server Error\n");
    }
  }

  @Test
  void whenEveryThreadAndTheQueueAreTakenTheNextRequestIs503() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch running = new CountDownLatch(1);
    try (LoopbackHttpServer server =
        LoopbackHttpServer.builder("test-busy")
            .threads(1)
            .queue(1)
            .route(
                Route.exact("/slow")
                    .get(
                        exchange -> {
                          running.countDown();
                          try {
                            release.await(20, TimeUnit.SECONDS);
                          } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                          }
                          text(exchange, "slow");
                        }))
            .start()) {
      URI slow = server.url().resolve("/slow");
      HttpClient separate = HttpClient.newHttpClient();
      CompletableFuture<HttpResponse<String>> first =
          separate.sendAsync(
              HttpRequest.newBuilder(slow).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
      // Of the next two, whichever comes second finds the thread and the queue's one place taken.
      CompletableFuture<HttpResponse<String>> second =
          separate.sendAsync(
              HttpRequest.newBuilder(slow).build(), HttpResponse.BodyHandlers.ofString());
      CompletableFuture<HttpResponse<String>> third =
          separate.sendAsync(
              HttpRequest.newBuilder(slow).build(), HttpResponse.BodyHandlers.ofString());
      HttpResponse<?> refusedFirst =
          (HttpResponse<?>) CompletableFuture.anyOf(second, third).get(10, TimeUnit.SECONDS);
      assertThat(refusedFirst.statusCode()).isEqualTo(503);
      @SuppressWarnings("unchecked")
      HttpResponse<String> refused = (HttpResponse<String>) refusedFirst;
      CompletableFuture<HttpResponse<String>> queued =
          second.isDone() && second.get() == refused ? third : second;
      assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(refused.body())
          .startsWith("test-busy is busy: all 1 request threads and 1 queued requests are taken");
      release.countDown();
      assertThat(first.get(10, TimeUnit.SECONDS).body()).isEqualTo("slow");
      assertThat(queued.get(10, TimeUnit.SECONDS).body()).isEqualTo("slow");
    }
  }

  @Test
  void closeDoesNotWaitForAHandlerThatNeverReturns() throws Exception {
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    LoopbackHttpServer server =
        LoopbackHttpServer.builder("test-stop")
            .grace(Duration.ofMillis(200))
            .route(
                Route.exact("/hang")
                    .get(
                        exchange -> {
                          running.countDown();
                          while (true) {
                            try {
                              never.await();
                            } catch (InterruptedException e) {
                              // deaf to interrupts, as a handler stuck in a read may be
                            }
                          }
                        }))
            .start();
    http.sendAsync(
        HttpRequest.newBuilder(server.url().resolve("/hang")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();

    long started = System.nanoTime();
    server.close();
    long tookMillis = (System.nanoTime() - started) / 1_000_000;

    assertThat(tookMillis)
        .isBetween(200L, 200L + LoopbackHttpServer.STOP_WAIT_SECONDS * 1000L + 1000L);
    never.countDown();
  }
}
