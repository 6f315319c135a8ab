package dev.firedrill.net.http1;

import java.io.IOException;

/**
 * Where a message body ends, found as its bytes stream past, without copying them: by its length,
 * by its chunked framing (chunk sizes, data, trailers, all checked), or at the end of the stream.
 * One per body: it keeps its place between reads, so a body may arrive in any number of pieces. The
 * chunk data (without the framing) can be had along the way.
 */
public final class Http1Body {

  private enum State {
    SIZE,
    EXTENSION,
    DATA,
    DATA_END,
    TRAILER,
    DONE
  }

  private static final int MAX_SIZE_DIGITS = 15;

  private final boolean chunked;
  private final boolean untilClose;
  private final long length;
  private State state;
  private long remaining;
  private long size;
  private int digits;
  private int lineLength;

  private Http1Body(boolean chunked, boolean untilClose, long length) {
    this.chunked = chunked;
    this.untilClose = untilClose;
    this.length = length;
    this.remaining = Math.max(length, 0);
    this.state = chunked ? State.SIZE : (untilClose || remaining > 0 ? State.DATA : State.DONE);
  }

  /** No body at all (a HEAD answer, a 204, a request without a length). */
  public static Http1Body none() {
    return new Http1Body(false, false, -1);
  }

  /** Exactly {@code length} bytes. */
  public static Http1Body ofLength(long length) {
    return new Http1Body(false, false, length);
  }

  public static Http1Body chunked() {
    return new Http1Body(true, false, -1);
  }

  /** Up to the end of the stream: a response without a length. */
  public static Http1Body untilClose() {
    return new Http1Body(false, true, -1);
  }

  /**
   * A request's body: chunked, of its Content-Length, or none. IOException for a malformed length.
   */
  public static Http1Body ofRequest(Http1Head head) throws IOException {
    if (head.chunked()) {
      return chunked();
    }
    long length = head.contentLength();
    return length >= 0 ? ofLength(length) : none();
  }

  /**
   * A response's body (RFC 9112 6.3): none for a HEAD request's answer and for 1xx, 204 and 304;
   * else chunked, of its Content-Length, or until the connection closes.
   */
  public static Http1Body ofResponse(Http1Head head, boolean headRequest) throws IOException {
    int status = head.status();
    if (headRequest || status == 204 || status == 304 || (status >= 100 && status < 200)) {
      return none();
    }
    if (head.chunked()) {
      return chunked();
    }
    if (head.header("Transfer-Encoding").isPresent()) {
      return untilClose(); // a coding other than chunked last: the body runs to the close
    }
    long length = head.contentLength();
    return length >= 0 ? ofLength(length) : untilClose();
  }

  /** No body: nothing to read, nor to declare. */
  public boolean isNone() {
    return !chunked && !untilClose && length < 0;
  }

  public boolean isChunked() {
    return chunked;
  }

  public boolean isUntilClose() {
    return untilClose;
  }

  /** The declared length, or -1 when chunked, until close, or none. */
  public long length() {
    return length;
  }

  /** Whether the body ended (a body until close ends with the stream, not here). */
  public boolean done() {
    return state == State.DONE;
  }

  /**
   * How many of the {@code length} bytes at {@code offset} belong to the body; fewer once it ends.
   */
  public int scan(byte[] bytes, int offset, int length) throws IOException {
    return scan(bytes, offset, length, null);
  }

  /**
   * {@link #scan(byte[], int, int)}, handing the body's data (for a chunked body, the chunks
   * without their framing) to {@code data} when not null.
   */
  public int scan(byte[] bytes, int offset, int length, Http1Reader.Sink data) throws IOException {
    if (untilClose) {
      if (data != null) {
        data.write(bytes, offset, length);
      }
      return length;
    }
    int at = offset;
    int end = offset + length;
    while (at < end && state != State.DONE) {
      if (state == State.DATA) {
        int n = (int) Math.min(remaining, end - at);
        if (data != null) {
          data.write(bytes, at, n);
        }
        at += n;
        remaining -= n;
        if (remaining == 0) {
          state = chunked ? State.DATA_END : State.DONE;
        }
      } else {
        framing(bytes[at++]);
      }
    }
    return at - offset;
  }

  /** One byte of a chunk-size line, of the CRLF after a chunk's data, or of a trailer. */
  private void framing(byte b) throws IOException {
    switch (state) {
      case SIZE -> {
        int digit = Character.digit(b, 16);
        if (digit >= 0) {
          if (++digits > MAX_SIZE_DIGITS) {
            throw new IOException("malformed chunk size");
          }
          size = size * 16 + digit;
        } else if (b == '\n') {
          endSizeLine();
        } else if (b == ';' || b == ' ' || b == '\t' || b == '\r') {
          state = State.EXTENSION;
        } else {
          throw new IOException("malformed chunk size");
        }
      }
      case EXTENSION -> {
        if (b == '\n') {
          endSizeLine();
        }
      }
      case DATA_END -> {
        if (b == '\n') {
          state = State.SIZE;
        } else if (b != '\r') {
          throw new IOException("chunk not followed by CRLF");
        }
      }
      case TRAILER -> {
        if (b == '\n') {
          if (lineLength == 0) {
            state = State.DONE;
          }
          lineLength = 0;
        } else if (b != '\r') {
          lineLength++;
        }
      }
      default -> throw new IllegalStateException(state.name());
    }
  }

  private void endSizeLine() throws IOException {
    if (digits == 0) {
      throw new IOException("malformed chunk size");
    }
    if (size == 0) {
      state = State.TRAILER;
      lineLength = 0;
    } else {
      remaining = size;
      state = State.DATA;
    }
    size = 0;
    digits = 0;
  }
}
