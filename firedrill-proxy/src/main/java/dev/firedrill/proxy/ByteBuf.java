package dev.firedrill.proxy;

import dev.firedrill.net.http1.Http1Reader;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;

/**
 * A growable byte buffer, reused from one request to the next on a connection, so a request's head
 * and body reach the upstream in one write and nothing big is allocated per request. Not
 * thread-safe (one per connection thread).
 */
final class ByteBuf implements Http1Reader.Sink {

  private static final int INITIAL = 4 * 1024;

  /** Above this, {@link #reset()} drops the array instead of keeping a large body's buffer. */
  private static final int KEEP = 64 * 1024;

  private byte[] bytes = new byte[INITIAL];
  private int size;

  byte[] array() {
    return bytes;
  }

  int size() {
    return size;
  }

  /** Empties the buffer; a large one is let go. */
  void reset() {
    size = 0;
    if (bytes.length > KEEP) {
      bytes = new byte[INITIAL];
    }
  }

  private void ensure(int more) {
    int needed = size + more;
    if (needed > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(needed, bytes.length * 2));
    }
  }

  @Override
  public void write(byte[] source, int offset, int length) {
    ensure(length);
    System.arraycopy(source, offset, bytes, size, length);
    size += length;
  }

  void write(int b) {
    ensure(1);
    bytes[size++] = (byte) b;
  }

  /** Appends ISO-8859-1 text (HTTP heads are Latin-1 on the wire). */
  void latin1(String text) {
    int n = text.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      bytes[size + i] = (byte) text.charAt(i);
    }
    size += n;
  }

  void crlf() {
    ensure(2);
    bytes[size++] = '\r';
    bytes[size++] = '\n';
  }

  /** Appends a head: the start line, the headers ({@code {name, value}}) and the empty line. */
  void head(String startLine, List<String[]> headers) {
    latin1(startLine);
    crlf();
    for (String[] header : headers) {
      latin1(header[0]);
      write(':');
      write(' ');
      latin1(header[1]);
      crlf();
    }
    crlf();
  }

  void writeTo(OutputStream out) throws IOException {
    out.write(bytes, 0, size);
  }
}
