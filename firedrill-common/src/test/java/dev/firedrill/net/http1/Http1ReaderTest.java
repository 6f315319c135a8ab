package dev.firedrill.net.http1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

/**
 * The one HTTP/1.1 reader: blocking and non-blocking on one buffer, and a connection handed from
 * one to the other.
 */
class Http1ReaderTest {

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.ISO_8859_1);
  }

  /** A blocking stream that gives one byte per read: every boundary falls between two reads. */
  private static InputStream trickle(String text) {
    ByteArrayInputStream in = new ByteArrayInputStream(bytes(text));
    return new InputStream() {
      @Override
      public int read() {
        return in.read();
      }

      @Override
      public int read(byte[] into, int offset, int length) {
        return length == 0 ? 0 : in.read(into, offset, 1);
      }
    };
  }

  /** A non-blocking source: each fill gets the next piece queued, or nothing (0) when none is. */
  private static final class Pieces implements Http1Reader.Source {
    final Deque<byte[]> queued = new ArrayDeque<>();
    boolean ended;

    Pieces add(String piece) {
      queued.add(bytes(piece));
      return this;
    }

    @Override
    public int read(byte[] into, int offset, int length) {
      byte[] next = queued.poll();
      if (next == null) {
        return ended ? -1 : 0;
      }
      System.arraycopy(next, 0, into, offset, next.length);
      return next.length;
    }
  }

  @Test
  void readsKeptAliveResponsesWhateverTheirBytesArriveIn() throws IOException {
    Http1Reader reader =
        new Http1Reader(
            Http1Reader.Source.of(
                trickle(
                    "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
                        + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
                        + "HTTP/1.1 204 No Content\r\n\r\n")));
    ByteArrayOutputStream body = new ByteArrayOutputStream();

    Http1Head first = reader.readHead();
    reader.readBodyData(Http1Body.ofResponse(first, false), Http1Reader.Sink.of(body));
    assertThat(body.toString(StandardCharsets.ISO_8859_1)).isEqualTo("hello");

    body.reset();
    Http1Head second = reader.readHead();
    reader.relayBody(Http1Body.ofResponse(second, false), Http1Reader.Sink.of(body));
    assertThat(body.toString(StandardCharsets.ISO_8859_1)).isEqualTo("3\r\nabc\r\n0\r\n\r\n");

    assertThat(reader.readHead().status()).isEqualTo(204);
    assertThat(reader.readHead()).as("a clean end").isNull();
  }

  @Test
  void aStreamThatEndsInsideAHeadOrABodyFails() throws IOException {
    assertThatThrownBy(
            () ->
                new Http1Reader(Http1Reader.Source.of(trickle("HTTP/1.1 200 OK\r\nA: b")))
                    .readHead())
        .isInstanceOf(EOFException.class)
        .hasMessage("stream ended inside a head");
    Http1Reader cut =
        new Http1Reader(
            Http1Reader.Source.of(trickle("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabc")));
    Http1Body body = Http1Body.ofResponse(cut.readHead(), false);
    assertThatThrownBy(() -> cut.relayBody(body, Http1Reader.Sink.discard()))
        .isInstanceOf(EOFException.class)
        .hasMessage("stream ended inside a body");
    Http1Reader untilClose =
        new Http1Reader(Http1Reader.Source.of(trickle("HTTP/1.1 200 OK\r\n\r\nall of it")));
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    untilClose.relayBody(
        Http1Body.ofResponse(untilClose.readHead(), false), Http1Reader.Sink.of(all));
    assertThat(all.toString(StandardCharsets.ISO_8859_1)).isEqualTo("all of it");
  }

  @Test
  void aHeadThatCannotFitTheBufferFailsAndCostsNoMore() {
    String huge = "GET / HTTP/1.1\r\nX-Big: " + "x".repeat(Http1Reader.BUFFER) + "\r\n\r\n";
    assertThatThrownBy(
            () ->
                new Http1Reader(Http1Reader.Source.of(new ByteArrayInputStream(bytes(huge))))
                    .readHead())
        .isInstanceOf(IOException.class)
        .hasMessage("head larger than 16384 bytes");
  }

  @Test
  void withoutBlockingAHeadComesOnlyWhenWholeAndTheBodyAsItArrives() throws IOException {
    Pieces source = new Pieces();
    Http1Reader reader = new Http1Reader(source);
    assertThat(reader.fill()).isZero();
    source.add("POST /pay HTTP/1.1\r\nContent-Le");
    reader.fill();
    assertThat(reader.nextHead()).isNull();
    assertThat(reader.buffered()).as("nothing consumed").isEqualTo(30);
    source.add("ngth: 4\r\n\r\nab");
    reader.fill();
    Http1Head head = reader.nextHead();
    assertThat(head.startLine()).isEqualTo("POST /pay HTTP/1.1");
    assertThat(reader.lastHeadLength()).isEqualTo(41);
    Http1Body body = Http1Body.ofRequest(head);
    ByteArrayOutputStream passed = new ByteArrayOutputStream();
    reader.passBody(body, Http1Reader.Sink.of(passed));
    assertThat(body.done()).isFalse();
    source.add("cdGET /next");
    reader.fill();
    reader.passBody(body, Http1Reader.Sink.of(passed));
    assertThat(body.done()).isTrue();
    assertThat(passed.toString(StandardCharsets.ISO_8859_1)).isEqualTo("abcd");
    assertThat(reader.buffered()).as("the next request stays buffered").isEqualTo(9);
  }

  @Test
  void aConnectionHandedFromNonBlockingToBlockingReadsKeepsWhatWasReadAhead() throws IOException {
    // The event loop read one request and the start of the next, then hands the connection over.
    Pieces loop =
        new Pieces()
            .add(
                "GET /a HTTP/1.1\r\nHost: h\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 6\r\n\r\nfir");
    Http1Reader reader = new Http1Reader(loop);
    reader.fill();
    assertThat(reader.nextHead().startLine()).isEqualTo("GET /a HTTP/1.1");
    Http1Head pipelined = reader.nextHead();
    assertThat(pipelined.startLine()).isEqualTo("POST /b HTTP/1.1");

    reader.source(
        Http1Reader.Source.of(
            trickle("st!GET /c HTTP/1.1\r\n\r\n"))); // the same connection, now blocking
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    reader.readBodyData(Http1Body.ofRequest(pipelined), Http1Reader.Sink.of(body));

    assertThat(body.toString(StandardCharsets.ISO_8859_1)).isEqualTo("first!");
    assertThat(reader.readHead().startLine()).isEqualTo("GET /c HTTP/1.1");
  }

  @Test
  void aBufferFullOfPartialHeadIsCompactedBeforeTheNextRead() throws IOException {
    // A first message that leaves the buffer's end holding half a head: the next read moves it to
    // the front.
    int bodyLength = Http1Reader.BUFFER - 64;
    String first = "HTTP/1.1 200 OK\r\nContent-Length: " + bodyLength + "\r\n\r\n";
    String second = "HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n";
    String all = first + "x".repeat(bodyLength) + second;
    Http1Reader reader =
        new Http1Reader(Http1Reader.Source.of(new ByteArrayInputStream(bytes(all))));
    reader.relayBody(Http1Body.ofResponse(reader.readHead(), false), Http1Reader.Sink.discard());
    assertThat(reader.readHead().status()).isEqualTo(201);
  }
}
