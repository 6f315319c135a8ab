package dev.firedrill.proxy;

import java.io.IOException;

/**
 * Finds where a response body ends as its bytes stream past, without copying or decoding them: by
 * its length, by its chunked framing (chunk sizes, data, trailers), or at the end of the stream.
 * The event loop passes the bytes on verbatim and needs only the boundary.
 */
final class BodyScanner {

  private enum State { SIZE, EXTENSION, DATA, DATA_END, TRAILER, DONE }

  private static final int MAX_SIZE_DIGITS = 15;

  private final boolean chunked;
  private final boolean untilClose;
  private State state;
  private long remaining;
  private long size;
  private int digits;
  private int lineLength;

  private BodyScanner(boolean chunked, boolean untilClose, long length) {
    this.chunked = chunked;
    this.untilClose = untilClose;
    this.remaining = Math.max(length, 0);
    this.state = chunked ? State.SIZE : (untilClose || remaining > 0 ? State.DATA : State.DONE);
  }

  static BodyScanner of(Forwarding.Response response) {
    if (response.noBody()) {
      return new BodyScanner(false, false, 0);
    }
    return new BodyScanner(response.chunked(), response.untilClose(), response.length());
  }

  /** Whether the body ended (a body until close ends with the stream, not here). */
  boolean done() {
    return state == State.DONE;
  }

  /** How many of the {@code length} bytes at {@code offset} belong to the body; fewer once it ends. */
  int scan(byte[] bytes, int offset, int length) throws IOException {
    if (untilClose) {
      return length;
    }
    int at = offset;
    int end = offset + length;
    while (at < end && state != State.DONE) {
      if (state == State.DATA) {
        int n = (int) Math.min(remaining, end - at);
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
