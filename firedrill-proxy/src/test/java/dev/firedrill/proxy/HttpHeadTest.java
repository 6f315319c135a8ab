package dev.firedrill.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HttpHeadTest {

  private static HttpHead parse(String text) throws IOException {
    byte[] bytes = ("xx" + text + "yy").getBytes(StandardCharsets.ISO_8859_1);
    return HttpHead.parse(bytes, 2, bytes.length - 4);
  }

  @Test
  void parsesNamesAndValuesStrippedWithCrLfOrLfLines() throws IOException {
    HttpHead head = parse("POST /pay?x=1 HTTP/1.1\r\nHost:  a:1 \r\n\tX-Tab\t:\tv w\t\nBaggage: k=v\r\n\r\n");
    assertThat(head.startLine()).isEqualTo("POST /pay?x=1 HTTP/1.1");
    assertThat(head.startParts()).containsExactly("POST", "/pay?x=1", "HTTP/1.1");
    assertThat(head.headers()).extracting(h -> h[0] + "=" + h[1]).containsExactly("Host=a:1", "X-Tab=v w", "Baggage=k=v");
  }

  @Test
  void splitsTheStartLineAsSplitDoes() throws IOException {
    for (String line : List.of("GET", "GET /", "HTTP/1.1 200 OK fine", "A  B", " A", "A B ")) {
      assertThat(parse(line + "\r\n\r\n").startParts()).as(line).containsExactly(line.split(" ", 3));
    }
  }

  @Test
  void refusesABlankStartLineAndAHeaderWithoutAColon() {
    assertThatThrownBy(() -> parse(" \t\r\nHost: x\r\n\r\n")).isInstanceOf(HttpHead.Malformed.class);
    assertThatThrownBy(() -> parse("GET / HTTP/1.1\r\nHost x\r\nA: b\r\n\r\n")).isInstanceOf(HttpHead.Malformed.class);
    assertThatThrownBy(() -> parse("GET / HTTP/1.1\r\n: x\r\n\r\n")).isInstanceOf(HttpHead.Malformed.class);
  }

  @Test
  void dropsHopByHopHeadersAndThoseConnectionNames() throws IOException {
    HttpHead head = parse("GET / HTTP/1.1\r\nConnection: keep-alive, X-Hop\r\nKEEP-ALIVE: 5\r\nx-hop: 1\r\n"
        + "Transfer-Encoding: chunked\r\nHost: h\r\nTraceparent: t\r\n\r\n");
    assertThat(head.endToEnd(Set.of("Host"))).extracting(h -> h[0]).containsExactly("Traceparent");
  }
}
