package dev.firedrill.net.http1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Http1BodyTest {

  private static final String CHUNKED =
      "5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: yes\r\n\r\n";

  private static Http1Body chunked() {
    return Http1Body.chunked();
  }

  @Test
  void findsTheEndOfAChunkedBodyWhereverItsBytesAreSplit() throws IOException {
    byte[] bytes = (CHUNKED + "NEXT").getBytes(StandardCharsets.ISO_8859_1);
    for (int split = 0; split <= bytes.length; split++) {
      Http1Body scanner = chunked();
      int first = scanner.scan(bytes, 0, split);
      int second = scanner.done() ? 0 : scanner.scan(bytes, first, bytes.length - first);
      assertThat(scanner.done()).as("split at %d", split).isTrue();
      assertThat(first + second).as("split at %d", split).isEqualTo(CHUNKED.length());
    }
  }

  @Test
  void countsALengthAndEndsAtOnceWithoutABody() throws IOException {
    Http1Body length = Http1Body.ofLength(10);
    assertThat(length.scan(new byte[6], 0, 6)).isEqualTo(6);
    assertThat(length.done()).isFalse();
    assertThat(length.scan(new byte[6], 0, 6)).isEqualTo(4);
    assertThat(length.done()).isTrue();
    assertThat(Http1Body.none().done()).isTrue();
    assertThat(Http1Body.ofLength(0).done()).isTrue();
  }

  @Test
  void refusesAMalformedChunkSize() {
    byte[] bytes = "zz\r\n".getBytes(StandardCharsets.ISO_8859_1);
    assertThatThrownBy(() -> chunked().scan(bytes, 0, bytes.length))
        .isInstanceOf(IOException.class);
  }

  @Test
  void handsOnTheChunksDataWithoutTheirFraming() throws IOException {
    byte[] bytes = CHUNKED.getBytes(StandardCharsets.ISO_8859_1);
    StringBuilder data = new StringBuilder();
    Http1Body body = chunked();
    for (int at = 0; at < bytes.length; at += 3) { // in pieces of three bytes
      body.scan(
          bytes,
          at,
          Math.min(3, bytes.length - at),
          (piece, offset, length) ->
              data.append(new String(piece, offset, length, StandardCharsets.ISO_8859_1)));
    }
    assertThat(body.done()).isTrue();
    assertThat(data).hasToString("hello world");
  }

  @Test
  void framesAResponseAsRfc9112Says() throws IOException {
    assertThat(response("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", false).length())
        .isEqualTo(5);
    assertThat(response("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", true).isNone()).isTrue();
    assertThat(response("HTTP/1.1 204 No Content\r\n\r\n", false).isNone()).isTrue();
    assertThat(response("HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n", false).isNone())
        .isTrue();
    assertThat(
            response(
                    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 9\r\n\r\n",
                    false)
                .isChunked())
        .isTrue();
    assertThat(response("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", false).isUntilClose())
        .isTrue();
    assertThat(response("HTTP/1.1 200 OK\r\n\r\n", false).isUntilClose()).isTrue();
  }

  private static Http1Body response(String head, boolean headRequest) throws IOException {
    return Http1Body.ofResponse(
        Http1Head.parse(head.getBytes(StandardCharsets.ISO_8859_1)), headRequest);
  }
}
