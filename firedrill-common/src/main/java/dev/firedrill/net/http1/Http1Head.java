package dev.firedrill.net.http1;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The start line and headers of an HTTP/1.x message, headers in their order and case (each a {@code
 * {name, value}} pair, values stripped).
 */
public record Http1Head(String startLine, List<String[]> headers) {

  /** A head that is not HTTP/1.x syntax (as opposed to an I/O failure while reading it). */
  public static final class Malformed extends IOException {
    private static final long serialVersionUID = 1L;

    public Malformed(String message) {
      super(message);
    }
  }

  /**
   * The length of the head that starts at {@code start}, up to and with its empty line (LF LF or CR
   * LF CR LF), or -1 when {@code end} comes first.
   */
  public static int length(byte[] bytes, int start, int end) {
    for (int i = start; i < end; i++) {
      if (bytes[i] == '\n'
          && ((i - 1 >= start && bytes[i - 1] == '\n')
              || (i - 3 >= start
                  && bytes[i - 1] == '\r'
                  && bytes[i - 2] == '\n'
                  && bytes[i - 3] == '\r'))) {
        return i + 1 - start;
      }
    }
    return -1;
  }

  public static Http1Head parse(byte[] bytes) throws IOException {
    return parse(bytes, 0, bytes.length);
  }

  /**
   * Parses {@code length} bytes at {@code offset}: lines end in LF or CR LF; empty lines are
   * skipped. Works on the bytes, making a string only of each name and value: the proxy parses two
   * heads per request.
   */
  public static Http1Head parse(byte[] bytes, int offset, int length) throws IOException {
    String startLine = null;
    List<String[]> headers = new ArrayList<>(16);
    int at = offset;
    int end = offset + length;
    while (at < end) {
      int lf = indexOf(bytes, '\n', at, end);
      int next = lf < 0 ? end : lf + 1;
      int lineEnd = lf < 0 ? end : (lf > at && bytes[lf - 1] == '\r' ? lf - 1 : lf);
      if (startLine == null) {
        if (strippedStart(bytes, at, lineEnd) == lineEnd) {
          throw new Malformed("empty start line");
        }
        startLine = latin1(bytes, at, lineEnd);
      } else if (lineEnd > at) {
        int colon = indexOf(bytes, ':', at, lineEnd);
        if (colon <= at) {
          throw new Malformed("malformed header line");
        }
        headers.add(new String[] {stripped(bytes, at, colon), stripped(bytes, colon + 1, lineEnd)});
      }
      at = next;
    }
    if (startLine == null) {
      throw new Malformed("empty start line");
    }
    return new Http1Head(startLine, headers);
  }

  private static int indexOf(byte[] bytes, char c, int from, int end) {
    for (int i = from; i < end; i++) {
      if (bytes[i] == c) {
        return i;
      }
    }
    return -1;
  }

  private static String latin1(byte[] bytes, int from, int to) {
    return new String(bytes, from, to - from, StandardCharsets.ISO_8859_1);
  }

  /**
   * The text from {@code from} to {@code to} without leading and trailing white space, as {@link
   * String#strip()}.
   */
  private static String stripped(byte[] bytes, int from, int to) {
    int start = strippedStart(bytes, from, to);
    return latin1(bytes, start, strippedEnd(bytes, start, to));
  }

  private static int strippedStart(byte[] bytes, int from, int to) {
    int i = from;
    while (i < to && Character.isWhitespace((char) (bytes[i] & 0xff))) {
      i++;
    }
    return i;
  }

  private static int strippedEnd(byte[] bytes, int from, int to) {
    int i = to;
    while (i > from && Character.isWhitespace((char) (bytes[i - 1] & 0xff))) {
      i--;
    }
    return i;
  }

  /** The first value of header {@code name} (any case). */
  public Optional<String> header(String name) {
    for (String[] header : headers) {
      if (header[0].equalsIgnoreCase(name)) {
        return Optional.of(header[1]);
      }
    }
    return Optional.empty();
  }

  /** Whether a comma-separated header such as Connection holds {@code token}. */
  public boolean hasToken(String name, String token) {
    for (String[] header : headers) {
      if (header[0].equalsIgnoreCase(name)) {
        for (String part : header[1].split(",")) {
          if (part.strip().equalsIgnoreCase(token)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** -1 when absent; IOException when not a length. */
  public long contentLength() throws IOException {
    Optional<String> value = header("Content-Length");
    if (value.isEmpty()) {
      return -1;
    }
    try {
      long length = Long.parseLong(value.get().strip());
      if (length < 0) {
        throw new IOException("negative Content-Length");
      }
      return length;
    } catch (NumberFormatException e) {
      throw new IOException("malformed Content-Length");
    }
  }

  /** Whether a Transfer-Encoding names chunked. */
  public boolean chunked() {
    return header("Transfer-Encoding")
        .map(v -> v.toLowerCase(Locale.ROOT).contains("chunked"))
        .orElse(false);
  }

  /**
   * The start line split at its first two spaces, as {@code split(" ", 3)} without its regex
   * machinery.
   */
  public String[] startParts() {
    int first = startLine.indexOf(' ');
    if (first < 0) {
      return new String[] {startLine};
    }
    int second = startLine.indexOf(' ', first + 1);
    if (second < 0) {
      return new String[] {startLine.substring(0, first), startLine.substring(first + 1)};
    }
    return new String[] {
      startLine.substring(0, first),
      startLine.substring(first + 1, second),
      startLine.substring(second + 1)
    };
  }

  /**
   * A response's status code, checked: {@code HTTP/1.x NNN}; {@link Malformed} for any other start
   * line (its first 40 characters in the message).
   */
  public int status() throws Malformed {
    String line = startLine;
    if (!line.startsWith("HTTP/1.") || line.length() < 12 || line.charAt(8) != ' ') {
      throw new Malformed("not an HTTP/1.x status line: " + abbreviate(line));
    }
    int status = 0;
    for (int i = 9; i < 12; i++) {
      int digit = Character.digit(line.charAt(i), 10);
      if (digit < 0) {
        throw new Malformed("not a status code: " + line.substring(9, 12));
      }
      status = status * 10 + digit;
    }
    return status;
  }

  /**
   * Whether the connection stays open after this message (RFC 9112 9.3): HTTP/1.1 unless {@code
   * Connection: close}; HTTP/1.0 only with {@code Connection: keep-alive}.
   */
  public boolean keepAlive() {
    boolean http10 = startLine.startsWith("HTTP/1.0") || startLine.endsWith("HTTP/1.0");
    return http10 ? hasToken("Connection", "keep-alive") : !hasToken("Connection", "close");
  }

  private static String abbreviate(String text) {
    String printable = text.replaceAll("[^\\x20-\\x7e]", "?");
    return printable.length() <= 40 ? printable : printable.substring(0, 40) + "...";
  }
}
