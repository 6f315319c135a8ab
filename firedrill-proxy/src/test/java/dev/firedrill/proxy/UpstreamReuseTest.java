package dev.firedrill.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.net.http1.Http1Body;
import dev.firedrill.net.http1.Http1Head;
import dev.firedrill.net.http1.Http1Reader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Keep-alive to the upstream holds under concurrency: connections opened track concurrency, not
 * requests.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UpstreamReuseTest {

  private static final int CLIENTS = 8;
  private static final int REQUESTS = 200;

  @Test
  void concurrentKeepAliveClientsReuseUpstreamConnections() throws Exception {
    try (Upstream upstream = new Upstream();
        FaultProxy proxy = Proxies.http(upstream.url())) {
      ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
      try {
        List<Future<Integer>> done = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
          done.add(
              pool.submit(
                  () -> {
                    try (Socket socket = new Socket("127.0.0.1", proxy.listenAddress().getPort())) {
                      socket.setTcpNoDelay(true);
                      socket.setSoTimeout(5000);
                      OutputStream out = socket.getOutputStream();
                      Http1Reader in = Proxies.reader(socket);
                      int ok = 0;
                      for (int i = 0; i < REQUESTS; i++) {
                        String body = "{\"n\":" + i + "}";
                        out.write(
                            ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: "
                                    + body.length()
                                    + "\r\n\r\n"
                                    + body)
                                .getBytes(StandardCharsets.ISO_8859_1));
                        Http1Head head = in.readHead();
                        java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
                        in.relayBody(
                            Http1Body.ofLength(head.contentLength()), Http1Reader.Sink.of(got));
                        if (head.startLine().startsWith("HTTP/1.1 200")
                            && got.toString(StandardCharsets.UTF_8)
                                .contains(body.replace("\"", "\\\""))) {
                          ok++;
                        }
                      }
                      return ok;
                    }
                  }));
        }
        for (Future<Integer> f : done) {
          assertThat(f.get()).isEqualTo(REQUESTS);
        }
      } finally {
        pool.shutdownNow();
      }
      assertThat(proxy.upstreamConnectionsOpened()).isBetween(1L, (long) CLIENTS);
    }
  }
}
