package dev.firedrill.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Each toxic changes real traffic on 127.0.0.1 as it claims. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ToxicsOnTrafficTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(2))
          .build();
  private Upstream upstream;
  private FaultProxy proxy;
  private Admin admin;

  @BeforeEach
  void start() throws IOException {
    upstream = new Upstream();
    proxy = Proxies.http(upstream.url());
    admin = new Admin(proxy.adminUrl());
  }

  @AfterEach
  void stop() {
    proxy.close();
    upstream.close();
  }

  private HttpResponse<String> get(URI base, String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void forwardsMethodPathQueryHeadersAndBody() throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(proxy.url().resolve("/echo/pay?order=42&x=%20y"))
            .timeout(Duration.ofSeconds(5))
            .header("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
            .header("baggage", "chaos.experiment.id=payments-latency")
            .header("X-Custom", "one")
            .method("PUT", HttpRequest.BodyPublishers.ofString("{\"amount\": 12}"))
            .build();
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("X-Upstream")).hasValue("yes");
    JsonNode echo = JSON.readTree(response.body());
    assertThat(echo.path("method").asText()).isEqualTo("PUT");
    assertThat(echo.path("path").asText()).isEqualTo("/echo/pay");
    assertThat(echo.path("query").asText()).isEqualTo("order=42&x=%20y");
    assertThat(echo.path("headers").path("traceparent").asText())
        .isEqualTo("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
    assertThat(echo.path("headers").path("baggage").asText())
        .isEqualTo("chaos.experiment.id=payments-latency");
    assertThat(echo.path("headers").path("x-custom").asText()).isEqualTo("one");
    assertThat(echo.path("headers").path("host").asText()).isEqualTo(upstream.url().getAuthority());
    assertThat(echo.path("body").asText()).isEqualTo("{\"amount\": 12}");
  }

  @Test
  void forwardsChunkedRequestBodies() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", proxy.listenAddress().getPort())) {
      socket.setSoTimeout(5000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                  + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n")
              .getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      String response =
          new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
      assertThat(response).startsWith("HTTP/1.1 200").contains("\"body\":\"hello world\"");
    }
  }

  @Test
  void latencyAddsItsDelayWithinTenPercent() throws Exception {
    get(proxy.url(), "/ok"); // warm up both paths
    get(upstream.url(), "/ok");
    double direct = medianMillis(upstream.url(), 50);
    double clean = medianMillis(proxy.url(), 50);
    admin.add(
        "{\"type\": \"latency\", \"attributes\": {\"latency\": 200, \"jitter\": 20}, \"ttl\": \"1m\"}");
    double toxic = medianMillis(proxy.url(), 50);

    String seen =
        String.format(
            "direct %.2f ms, proxied %.2f ms, with latency 200 ms %.2f ms", direct, clean, toxic);
    assertThat(toxic - direct)
        .as("added median latency against going direct, ms (%s)", seen)
        .isBetween(180.0, 220.0);
    assertThat(toxic - clean)
        .as("added median latency against the clean proxy, ms (%s)", seen)
        .isBetween(180.0, 220.0);
  }

  private double medianMillis(URI base, int requests) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(10);
    try {
      List<Future<Double>> futures = new ArrayList<>();
      for (int i = 0; i < requests; i++) {
        futures.add(
            pool.submit(
                () -> {
                  long start = System.nanoTime();
                  assertThat(get(base, "/ok").statusCode()).isEqualTo(200);
                  return (System.nanoTime() - start) / 1e6;
                }));
      }
      List<Double> times = new ArrayList<>();
      for (Future<Double> future : futures) {
        times.add(future.get(30, TimeUnit.SECONDS));
      }
      Collections.sort(times);
      return (times.get(requests / 2 - 1) + times.get(requests / 2)) / 2;
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void errorAnswersItsStatusToItsShareOfRequests() throws Exception {
    admin.add(
        "{\"type\": \"error\", \"toxicity\": 0.3, \"attributes\": {\"status\": 503}, \"ttl\": \"1m\"}");
    int requests = 1000;
    int errors = 0;
    for (int i = 0; i < requests; i++) {
      HttpResponse<String> response = get(proxy.url(), "/ok");
      if (response.statusCode() == 503) {
        errors++;
        assertThat(response.body()).contains("injected by firedrill proxy toxic error_downstream");
      } else {
        assertThat(response.statusCode()).isEqualTo(200);
      }
    }
    double sd = Math.sqrt(requests * 0.3 * 0.7);
    assertThat((double) errors)
        .as("503 answers out of %d at toxicity 0.3", requests)
        .isBetween(300 - 4 * sd, 300 + 4 * sd);
  }

  @Test
  void resetGivesTheClientAConnectionReset() throws Exception {
    admin.add("{\"type\": \"reset\", \"ttl\": \"1m\"}");
    try (Socket socket = new Socket("127.0.0.1", proxy.listenAddress().getPort())) {
      socket.setSoTimeout(5000);
      socket
          .getOutputStream()
          .write("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      InputStream in = socket.getInputStream();
      assertThatThrownBy(() -> in.read())
          .isInstanceOf(SocketException.class)
          .hasMessageContaining("reset");
    }
    assertThatThrownBy(() -> get(proxy.url(), "/ok")).isInstanceOf(IOException.class);
  }

  @Test
  void timeoutZeroHoldsUntilTheClientGivesUpAndReleasesWhenRemoved() throws Exception {
    admin.add("{\"type\": \"timeout\", \"attributes\": {\"timeout\": 0}, \"ttl\": \"1m\"}");
    HttpRequest request =
        HttpRequest.newBuilder(proxy.url().resolve("/ok")).timeout(Duration.ofSeconds(1)).build();
    long start = System.nanoTime();
    assertThatThrownBy(() -> client.send(request, HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(HttpTimeoutException.class);
    assertThat((System.nanoTime() - start) / 1e9).isGreaterThanOrEqualTo(0.95);

    var held =
        client.sendAsync(
            HttpRequest.newBuilder(proxy.url().resolve("/ok"))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    Thread.sleep(300);
    assertThat(held).isNotDone();
    assertThat(admin.delete("/proxies/payments/toxics/timeout_downstream").status()).isEqualTo(204);
    assertThat(held.get(5, TimeUnit.SECONDS).body()).isEqualTo("ok");
  }

  @Test
  void timeoutWithADurationClosesWithoutAnswer() throws Exception {
    admin.add(
        "{\"type\": \"timeout\", \"stream\": \"upstream\", \"attributes\": {\"timeout\": 500}, \"ttl\": \"1m\"}");
    try (Socket socket = new Socket("127.0.0.1", proxy.listenAddress().getPort())) {
      socket.setSoTimeout(5000);
      long start = System.nanoTime();
      socket
          .getOutputStream()
          .write("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      assertThat(socket.getInputStream().read()).isEqualTo(-1);
      assertThat((System.nanoTime() - start) / 1e6).isBetween(450.0, 1500.0);
    }
  }

  @Test
  void bandwidthLimitsResponseThroughput() throws Exception {
    admin.add("{\"type\": \"bandwidth\", \"attributes\": {\"rate\": 50}, \"ttl\": \"1m\"}");
    long start = System.nanoTime();
    HttpResponse<byte[]> response =
        client.send(
            HttpRequest.newBuilder(proxy.url().resolve("/bytes?n=100000"))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    double seconds = (System.nanoTime() - start) / 1e9;
    assertThat(response.body()).hasSize(100_000);
    assertThat(seconds).as("100 KB at 50 KB/s").isBetween(1.6, 2.4);
  }

  @Test
  void upstreamDownAnswers502InJson() throws Exception {
    upstream.close();
    HttpResponse<String> response = get(proxy.url(), "/ok");
    assertThat(response.statusCode()).isEqualTo(502);
    assertThat(JSON.readTree(response.body()).path("status").asInt()).isEqualTo(502);
    assertThat(response.body())
        .contains("upstream " + upstream.url().getAuthority() + " unreachable");
  }
}
