package dev.firedrill.proxy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** The start line and headers of an HTTP/1.x message, headers in their order and case. */
record HttpHead(String startLine, List<String[]> headers) {

  /** Hop-by-hop headers (RFC 9110 7.6.1); the proxy sets its own framing and connection handling. */
  private static final String[] HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection",
      "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade"};

  /** A head that is not HTTP/1.x syntax (as opposed to an I/O failure while reading it). */
  static final class Malformed extends IOException {
    Malformed(String message) {
      super(message);
    }
  }

  /**
   * The length of the head that starts at {@code start}, up to and with its empty line (LF LF or
   * CR LF CR LF), or -1 when {@code end} comes first.
   */
  static int length(byte[] bytes, int start, int end) {
    for (int i = start; i < end; i++) {
      if (bytes[i] == '\n' && ((i - 1 >= start && bytes[i - 1] == '\n')
          || (i - 3 >= start && bytes[i - 1] == '\r' && bytes[i - 2] == '\n' && bytes[i - 3] == '\r'))) {
        return i + 1 - start;
      }
    }
    return -1;
  }

  static HttpHead parse(byte[] bytes) throws IOException {
    return parse(bytes, 0, bytes.length);
  }

  /**
   * Parses {@code length} bytes at {@code offset}: lines end in LF or CR LF; empty lines are skipped.
   * Works on the bytes, making a string only of each name and value: the proxy parses two heads per
   * request.
   */
  static HttpHead parse(byte[] bytes, int offset, int length) throws IOException {
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
    return new HttpHead(startLine, headers);
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

  /** The text from {@code from} to {@code to} without leading and trailing white space, as {@link String#strip()}. */
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

  Optional<String> header(String name) {
    for (String[] header : headers) {
      if (header[0].equalsIgnoreCase(name)) {
        return Optional.of(header[1]);
      }
    }
    return Optional.empty();
  }

  /** Whether a comma-separated header such as Connection holds {@code token}. */
  boolean hasToken(String name, String token) {
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
  long contentLength() throws IOException {
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

  boolean chunked() {
    return header("Transfer-Encoding").map(v -> v.toLowerCase(Locale.ROOT).contains("chunked")).orElse(false);
  }

  /** The start line split at its first two spaces, as {@code split(" ", 3)} without its regex machinery. */
  String[] startParts() {
    int first = startLine.indexOf(' ');
    if (first < 0) {
      return new String[] {startLine};
    }
    int second = startLine.indexOf(' ', first + 1);
    if (second < 0) {
      return new String[] {startLine.substring(0, first), startLine.substring(first + 1)};
    }
    return new String[] {startLine.substring(0, first), startLine.substring(first + 1, second),
        startLine.substring(second + 1)};
  }

  /**
   * Headers without hop-by-hop ones, those Connection names, and the {@code extra} names given
   * (compared without regard to case).
   */
  List<String[]> endToEnd(Set<String> extra) {
    List<String> named = null; // names the Connection header lists
    for (String[] header : headers) {
      if (header[0].equalsIgnoreCase("Connection")) {
        for (String part : header[1].split(",")) {
          if (named == null) {
            named = new ArrayList<>(2);
          }
          named.add(part.strip());
        }
      }
    }
    List<String[]> kept = new ArrayList<>(headers.size() + 3);
    for (String[] header : headers) {
      if (!dropped(header[0], extra, named)) {
        kept.add(header);
      }
    }
    return kept;
  }

  private static boolean dropped(String name, Set<String> extra, List<String> named) {
    for (String hop : HOP_BY_HOP) { // equalsIgnoreCase compares lengths first: no lower-case copy per header
      if (hop.equalsIgnoreCase(name)) {
        return true;
      }
    }
    for (String other : extra) {
      if (other.equalsIgnoreCase(name)) {
        return true;
      }
    }
    if (named != null) {
      for (String other : named) {
        if (other.equalsIgnoreCase(name)) {
          return true;
        }
      }
    }
    return false;
  }

  static void write(OutputStream out, String startLine, List<String[]> headers) throws IOException {
    ByteBuf text = new ByteBuf();
    write(text, startLine, headers);
    text.writeTo(out);
  }

  /** Appends the start line, the headers and the empty line. */
  static void write(ByteBuf out, String startLine, List<String[]> headers) {
    out.latin1(startLine);
    out.crlf();
    for (String[] header : headers) {
      out.latin1(header[0]);
      out.write(':');
      out.write(' ');
      out.latin1(header[1]);
      out.crlf();
    }
    out.crlf();
  }
}
