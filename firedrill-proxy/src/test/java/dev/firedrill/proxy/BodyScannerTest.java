package dev.firedrill.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BodyScannerTest {

  private static final String CHUNKED = "5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: yes\r\n\r\n";

  private static BodyScanner chunked() {
    return BodyScanner.of(new Forwarding.Response(false, true, -1, false, true, true));
  }

  @Test
  void findsTheEndOfAChunkedBodyWhereverItsBytesAreSplit() throws IOException {
    byte[] bytes = (CHUNKED + "NEXT").getBytes(StandardCharsets.ISO_8859_1);
    for (int split = 0; split <= bytes.length; split++) {
      BodyScanner scanner = chunked();
      int first = scanner.scan(bytes, 0, split);
      int second = scanner.done() ? 0 : scanner.scan(bytes, first, bytes.length - first);
      assertThat(scanner.done()).as("split at %d", split).isTrue();
      assertThat(first + second).as("split at %d", split).isEqualTo(CHUNKED.length());
    }
  }

  @Test
  void countsALengthAndEndsAtOnceWithoutABody() throws IOException {
    BodyScanner length = BodyScanner.of(new Forwarding.Response(false, false, 10, false, true, true));
    assertThat(length.scan(new byte[6], 0, 6)).isEqualTo(6);
    assertThat(length.done()).isFalse();
    assertThat(length.scan(new byte[6], 0, 6)).isEqualTo(4);
    assertThat(length.done()).isTrue();
    assertThat(BodyScanner.of(new Forwarding.Response(true, false, -1, false, true, true)).done()).isTrue();
    assertThat(BodyScanner.of(new Forwarding.Response(false, false, 0, false, true, true)).done()).isTrue();
  }

  @Test
  void refusesAMalformedChunkSize() {
    byte[] bytes = "zz\r\n".getBytes(StandardCharsets.ISO_8859_1);
    assertThatThrownBy(() -> chunked().scan(bytes, 0, bytes.length)).isInstanceOf(IOException.class);
  }
}
