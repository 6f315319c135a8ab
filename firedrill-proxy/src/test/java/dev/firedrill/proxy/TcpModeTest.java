package dev.firedrill.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** TCP mode: a byte pipe per connection, with toxics drawn per connection. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TcpModeTest {

  @Test
  void pipesBytesAndAppliesLatencyResetAndRefusesError() throws Exception {
    try (Upstream upstream = new Upstream();
        FaultProxy proxy =
            Proxies.start(
                URI.create("tcp://127.0.0.1:" + upstream.address().getPort()),
                ProxyConfig.Mode.TCP,
                null)) {
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      HttpRequest ok =
          HttpRequest.newBuilder(proxy.url().resolve("/ok")).timeout(Duration.ofSeconds(5)).build();
      assertThat(client.send(ok, HttpResponse.BodyHandlers.ofString()).body()).isEqualTo("ok");

      Admin admin = new Admin(proxy.adminUrl());
      Admin.Answer error =
          admin.post("/proxies/payments/toxics", "{\"type\": \"error\", \"ttl\": \"1m\"}");
      assertThat(error.status()).isEqualTo(400);
      assertThat(error.json().path("error").asText())
          .isEqualTo(
              "toxic type error answers an HTTP status; this proxy runs in tcp mode (expected --mode http)");

      admin.add("{\"type\": \"latency\", \"attributes\": {\"latency\": 300}, \"ttl\": \"1m\"}");
      long start = System.nanoTime();
      assertThat(HttpClient.newHttpClient().send(ok, HttpResponse.BodyHandlers.ofString()).body())
          .isEqualTo("ok");
      assertThat((System.nanoTime() - start) / 1e6).isBetween(290.0, 1000.0);
      assertThat(admin.delete("/proxies/payments/toxics/latency_downstream").status())
          .isEqualTo(204);

      admin.add("{\"type\": \"reset\", \"stream\": \"upstream\", \"ttl\": \"1m\"}");
      try (Socket socket = new Socket("127.0.0.1", proxy.listenAddress().getPort())) {
        socket.setSoTimeout(5000);
        socket
            .getOutputStream()
            .write("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> socket.getInputStream().read())
            .isInstanceOf(SocketException.class)
            .hasMessageContaining("reset");
      }
    }
  }
}
