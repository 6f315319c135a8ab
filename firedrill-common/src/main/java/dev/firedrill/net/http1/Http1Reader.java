package dev.firedrill.proxy;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** A buffered reader of HTTP/1.x messages from a socket, relaying bodies without holding them. */
final class HttpInput {

  static final int MAX_HEAD = 64 * 1024;
  private static final int MAX_CHUNK_LINE = 4096;
  private static final byte[] CRLF = {'\r', '\n'};

  private final Socket socket;
  private final InputStream in;
  private final byte[] buffer = new byte[16 * 1024];
  private int start;
  private int end;

  HttpInput(Socket socket) throws IOException {
    this(socket, new byte[0], 0);
  }

  /** A reader whose first bytes are the {@code length} bytes of {@code read}, already read from the socket. */
  HttpInput(Socket socket, byte[] read, int length) throws IOException {
    this.socket = socket;
    this.in = socket.getInputStream();
    System.arraycopy(read, 0, buffer, 0, length);
    this.end = length;
  }

  /** The next head (up to the empty line), or null at a clean end of stream before any byte. */
  byte[] readHead() throws IOException {
    int length = headLength();
    if (length < 0) {
      return null;
    }
    byte[] head = java.util.Arrays.copyOfRange(buffer, start, start + length);
    start += length;
    return head;
  }

  /** The next head parsed in place, without copying its bytes; null at a clean end of stream. */
  HttpHead readParsedHead() throws IOException {
    int length = headLength();
    if (length < 0) {
      return null;
    }
    int at = start;
    start += length;
    return HttpHead.parse(buffer, at, length);
  }

  /** Buffers the next head; its length from {@code start}, or -1 at a clean end of stream. */
  private int headLength() throws IOException {
    int scanned = 0;
    while (true) {
      for (int i = start + scanned; i < end; i++) {
        if (buffer[i] == '\n' && endsHead(i)) {
          return i + 1 - start;
        }
      }
      scanned = end - start;
      if (scanned >= MAX_HEAD) {
        throw new IOException("head larger than " + MAX_HEAD + " bytes");
      }
      if (!fill()) {
        if (end == start) {
          return -1;
        }
        throw new EOFException("stream ended inside a head");
      }
    }
  }

  /** Whether the LF at {@code i} ends an empty line: LF LF or CR LF CR LF. */
  private boolean endsHead(int i) {
    if (i - 1 >= start && buffer[i - 1] == '\n') {
      return true;
    }
    return i - 3 >= start && buffer[i - 1] == '\r' && buffer[i - 2] == '\n' && buffer[i - 3] == '\r';
  }

  /** Moves unread bytes to the front and reads more; false at end of stream. */
  private boolean fill() throws IOException {
    if (start > 0) {
      System.arraycopy(buffer, start, buffer, 0, end - start);
      end -= start;
      start = 0;
    }
    if (end == buffer.length) {
      throw new IOException("buffer full");
    }
    int n = in.read(buffer, end, buffer.length - end);
    if (n < 0) {
      return false;
    }
    end += n;
    return true;
  }

  /** Copies exactly {@code length} bytes to {@code out}. */
  void relay(long length, Sink out) throws IOException {
    long left = length;
    while (left > 0) {
      if (start == end && !fill()) {
        throw new EOFException("stream ended " + left + " bytes before the end of the body");
      }
      int n = (int) Math.min(left, end - start);
      out.write(buffer, start, n);
      start += n;
      left -= n;
    }
  }

  /** Copies to {@code out} until the end of stream. */
  void relayToEnd(Sink out) throws IOException {
    while (start < end || fill()) {
      out.write(buffer, start, end - start);
      start = end;
    }
  }

  /** Copies a chunked body, framing included, to {@code out}. */
  void relayChunked(Sink out) throws IOException {
    while (true) {
      String line = line();
      out.write((line + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      int semicolon = line.indexOf(';');
      long size;
      try {
        size = Long.parseLong((semicolon >= 0 ? line.substring(0, semicolon) : line).strip(), 16);
      } catch (NumberFormatException e) {
        throw new IOException("malformed chunk size");
      }
      if (size == 0) {
        String trailer;
        do {
          trailer = line();
          out.write((trailer + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        } while (!trailer.isEmpty());
        return;
      }
      relay(size, out);
      String crlf = line();
      if (!crlf.isEmpty()) {
        throw new IOException("chunk not followed by CRLF");
      }
      out.write(CRLF, 0, 2);
    }
  }

  private String line() throws IOException {
    StringBuilder line = new StringBuilder();
    while (true) {
      if (start == end && !fill()) {
        throw new EOFException("stream ended inside a chunked body");
      }
      byte b = buffer[start++];
      if (b == '\n') {
        int length = line.length();
        return length > 0 && line.charAt(length - 1) == '\r' ? line.substring(0, length - 1) : line.toString();
      }
      line.append((char) (b & 0xff));
      if (line.length() > MAX_CHUNK_LINE) {
        throw new IOException("chunk line too long");
      }
    }
  }

  /**
   * Whether the peer has closed its side, checked without blocking for more than a millisecond.
   * Bytes that arrive (a pipelined request) stay in the buffer.
   */
  boolean peerClosed() throws IOException {
    if (start < end) {
      return false;
    }
    int previous = socket.getSoTimeout();
    socket.setSoTimeout(1);
    try {
      return !fill();
    } catch (SocketTimeoutException e) {
      return false;
    } finally {
      socket.setSoTimeout(previous);
    }
  }

  /** Where relayed bytes go. */
  interface Sink {
    void write(byte[] bytes, int offset, int length) throws IOException;

    default void write(byte[] bytes) throws IOException {
      write(bytes, 0, bytes.length);
    }

    static Sink of(OutputStream out) {
      return out::write;
    }
  }
}
