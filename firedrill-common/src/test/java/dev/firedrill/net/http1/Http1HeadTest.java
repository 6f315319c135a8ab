package dev.firedrill.net.http1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class Http1HeadTest {

  private static Http1Head parse(String text) throws IOException {
    byte[] bytes = ("xx" + text + "yy").getBytes(StandardCharsets.ISO_8859_1);
    return Http1Head.parse(bytes, 2, bytes.length - 4);
  }

  @Test
  void parsesNamesAndValuesStrippedWithCrLfOrLfLines() throws IOException {
    Http1Head head =
        parse("POST /pay?x=1 HTTP/1.1\r\nHost:  a:1 \r\n\tX-Tab\t:\tv w\t\nBaggage: k=v\r\n\r\n");
    assertThat(head.startLine()).isEqualTo("POST /pay?x=1 HTTP/1.1");
    assertThat(head.startParts()).containsExactly("POST", "/pay?x=1", "HTTP/1.1");
    assertThat(head.headers())
        .extracting(h -> h[0] + "=" + h[1])
        .containsExactly("Host=a:1", "X-Tab=v w", "Baggage=k=v");
  }

  @Test
  void splitsTheStartLineAsSplitDoes() throws IOException {
    for (String line : List.of("GET", "GET /", "HTTP/1.1 200 OK fine", "A  B", " A", "A B ")) {
      assertThat(parse(line + "\r\n\r\n").startParts())
          .as(line)
          .containsExactly(line.split(" ", 3));
    }
  }

  @Test
  void refusesABlankStartLineAndAHeaderWithoutAColon() {
    assertThatThrownBy(() -> parse(" \t\r\nHost: x\r\n\r\n"))
        .isInstanceOf(Http1Head.Malformed.class);
    assertThatThrownBy(() -> parse("GET / HTTP/1.1\r\nHost x\r\nA: b\r\n\r\n"))
        .isInstanceOf(Http1Head.Malformed.class);
    assertThatThrownBy(() -> parse("GET / HTTP/1.1\r\n: x\r\n\r\n"))
        .isInstanceOf(Http1Head.Malformed.class);
  }

  @Test
  void readsAStatusLineAndRefusesWhatIsNotOne() throws IOException {
    assertThat(parse("HTTP/1.1 503 Service Unavailable\r\n\r\n").status()).isEqualTo(503);
    assertThat(parse("HTTP/1.0 200\r\n\r\n").status()).isEqualTo(200);
    assertThatThrownBy(() -> parse("SSH-2.0-OpenSSH_9.2\r\n\r\n").status())
        .isInstanceOf(Http1Head.Malformed.class)
        .hasMessage("not an HTTP/1.x status line: SSH-2.0-OpenSSH_9.2");
    assertThatThrownBy(() -> parse("HTTP/1.1 2x0 OK\r\n\r\n").status())
        .isInstanceOf(Http1Head.Malformed.class)
        .hasMessage("not a status code: 2x0");
  }

  @Test
  void keepsAliveAsHttp11AndHttp10Say() throws IOException {
    assertThat(parse("HTTP/1.1 200 OK\r\n\r\n").keepAlive()).isTrue();
    assertThat(parse("HTTP/1.1 200 OK\r\nConnection: Close\r\n\r\n").keepAlive()).isFalse();
    assertThat(parse("HTTP/1.0 200 OK\r\n\r\n").keepAlive()).isFalse();
    assertThat(parse("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\n\r\n").keepAlive()).isTrue();
    assertThat(parse("GET / HTTP/1.0\r\n\r\n").keepAlive()).isFalse();
  }

  @Test
  void findsTheEmptyLineThatEndsAHead() {
    byte[] bytes = "GET / HTTP/1.1\r\nA: b\r\n\r\nbody".getBytes(StandardCharsets.ISO_8859_1);
    assertThat(Http1Head.length(bytes, 0, bytes.length)).isEqualTo(bytes.length - 4);
    assertThat(Http1Head.length(bytes, 0, bytes.length - 6)).isEqualTo(-1);
    byte[] bare = "GET /\n\nrest".getBytes(StandardCharsets.ISO_8859_1);
    assertThat(Http1Head.length(bare, 0, bare.length)).isEqualTo(7);
  }
}
