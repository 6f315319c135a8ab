package dev.firedrill.lab.load;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ProtocolException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Reads HTTP/1.1 responses off one connection and throws their bodies away. It keeps a buffer of
 * its own rather than wrap the stream, so that the socket's read timeout can be set to what is left
 * of the request's deadline before every read: a slow trickle cannot stretch a request past it.
 * Heads are bounded (8 KiB a line, 100 lines), so a hostile server costs bounded memory.
 */
final class ResponseReader {

  /** A response read to its end: its status, and whether the connection may carry the next request. */
  record Response(int status, boolean keepAlive) {}

  private static final int MAX_LINE = 8_192;
  private static final int MAX_HEADERS = 100;

  private final Socket socket;
  private final InputStream in;
  private final byte[] buffer = new byte[16_384];
  private final StringBuilder line = new StringBuilder(128);
  private int position;
  private int limit;
  private long received;
  private long deadline;

  ResponseReader(Socket socket) throws IOException {
    this.socket = socket;
    this.in = socket.getInputStream();
  }

  /** Bytes of this response received so far: none means the server closed without answering at all. */
  long received() {
    return received;
  }

  /**
   * Starts a new request's response: none of it received yet, and reads past {@code deadline} (a
   * {@link System#nanoTime} reading) throw {@link SocketTimeoutException}.
   */
  void start(long deadline) {
    this.deadline = deadline;
    this.received = 0;
  }

  /**
   * The response to the request sent since {@link #start}, body included; 1xx interim responses
   * are skipped. {@code head} says the request was HEAD (no body whatever the headers say).
   */
  Response read(boolean head) throws IOException {
    while (true) {
      String statusLine = readLine();
      if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12 || statusLine.charAt(8) != ' ') {
        throw new ProtocolException("not an HTTP/1.x status line: " + abbreviate(statusLine));
      }
      int status = parseStatus(statusLine.substring(9, 12));
      boolean keepAlive = statusLine.charAt(7) != '0'; // HTTP/1.0 closes unless it says keep-alive
      boolean chunked = false;
      boolean delimited = false;
      long length = -1;
      for (int count = 0; ; count++) {
        String header = readLine();
        if (header.isEmpty()) {
          break;
        }
        if (count == MAX_HEADERS) {
          throw new ProtocolException("more than " + MAX_HEADERS + " header lines");
        }
        int colon = header.indexOf(':');
        if (colon <= 0) {
          continue;
        }
        String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
        String value = header.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
        switch (name) {
          case "content-length" -> length = parseLength(value);
          case "transfer-encoding" -> {
            delimited = true; // any transfer coding: the body is chunked or runs to the close
            chunked = value.endsWith("chunked");
          }
          case "connection" -> keepAlive = value.contains("keep-alive") || (keepAlive && !value.contains("close"));
          default -> { }
        }
      }
      if (status >= 100 && status < 200 && status != 101) {
        continue; // 100 Continue and friends: the real response follows
      }
      if (head || status == 101 || status == 204 || status == 304) {
        return new Response(status, keepAlive && status != 101);
      }
      if (chunked) {
        skipChunks();
      } else if (delimited || length < 0) {
        skipToEnd(); // no length: the body ends when the server closes
        return new Response(status, false);
      } else {
        skip(length);
      }
      return new Response(status, keepAlive);
    }
  }

  private void skipChunks() throws IOException {
    while (true) {
      String size = readLine();
      int end = size.indexOf(';'); // chunk extensions are ignored
      long length;
      try {
        length = Long.parseLong((end < 0 ? size : size.substring(0, end)).trim(), 16);
      } catch (NumberFormatException e) {
        throw new ProtocolException("not a chunk size: " + abbreviate(size));
      }
      if (length < 0) {
        throw new ProtocolException("negative chunk size");
      }
      if (length == 0) {
        for (int count = 0; !readLine().isEmpty(); count++) { // trailers
          if (count == MAX_HEADERS) {
            throw new ProtocolException("more than " + MAX_HEADERS + " trailer lines");
          }
        }
        return;
      }
      skip(length);
      if (!readLine().isEmpty()) {
        throw new ProtocolException("chunk longer than its size");
      }
    }
  }

  private void skip(long length) throws IOException {
    long left = length;
    while (left > 0) {
      if (position == limit) {
        fill();
      }
      int step = (int) Math.min(left, limit - position);
      position += step;
      left -= step;
    }
  }

  private void skipToEnd() throws IOException {
    while (true) {
      position = limit;
      if (!tryFill()) {
        return;
      }
    }
  }

  /** One line without its CRLF (a bare LF is accepted too). */
  private String readLine() throws IOException {
    line.setLength(0);
    while (true) {
      if (position == limit) {
        fill();
      }
      while (position < limit) {
        char c = (char) (buffer[position++] & 0xff);
        if (c == '\n') {
          int length = line.length();
          if (length > 0 && line.charAt(length - 1) == '\r') {
            line.setLength(length - 1);
          }
          return line.toString();
        }
        if (line.length() == MAX_LINE) {
          throw new ProtocolException("a line longer than " + MAX_LINE + " bytes");
        }
        line.append(c);
      }
    }
  }

  private void fill() throws IOException {
    if (!tryFill()) {
      throw new EOFException("the server closed the connection before the response ended");
    }
  }

  /** Reads more into the buffer, waiting at most until the deadline; false at the end of the stream. */
  private boolean tryFill() throws IOException {
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      throw new SocketTimeoutException("no complete response within the timeout");
    }
    socket.setSoTimeout((int) Math.max(1, (left + 999_999) / 1_000_000));
    int n = in.read(buffer);
    if (n < 0) {
      return false;
    }
    position = 0;
    limit = n;
    received += n;
    return true;
  }

  private static int parseStatus(String digits) throws ProtocolException {
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      throw new ProtocolException("not a status code: " + digits);
    }
  }

  private static long parseLength(String value) throws ProtocolException {
    try {
      long length = Long.parseLong(value);
      if (length >= 0) {
        return length;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ProtocolException("not a content length: " + abbreviate(value));
  }

  private static String abbreviate(String text) {
    String printable = new String(text.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.US_ASCII);
    return printable.length() <= 40 ? printable : printable.substring(0, 40) + "...";
  }
}
