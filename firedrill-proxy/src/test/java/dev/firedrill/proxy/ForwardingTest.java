package dev.firedrill.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.net.http1.Http1Head;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ForwardingTest {

  @Test
  void dropsHopByHopHeadersAndThoseConnectionNames() throws IOException {
    Http1Head head =
        Http1Head.parse(
            ("GET / HTTP/1.1\r\nConnection: keep-alive, X-Hop\r\nKEEP-ALIVE: 5\r\nx-hop: 1\r\n"
                    + "Transfer-Encoding: chunked\r\nHost: h\r\nTraceparent: t\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
    assertThat(Forwarding.endToEnd(head, Set.of("Host")))
        .extracting(h -> h[0])
        .containsExactly("Traceparent");
  }
}
