package dev.firedrill.lab.proxy;

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
  private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-connection",
      "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade");

  /** A head that is not HTTP/1.x syntax (as opposed to an I/O failure while reading it). */
  static final class Malformed extends IOException {
    Malformed(String message) {
      super(message);
    }
  }

  static HttpHead parse(byte[] bytes) throws IOException {
    return parse(bytes, 0, bytes.length);
  }

  /** Parses {@code length} bytes at {@code offset}: lines end in LF or CR LF; empty lines are skipped. */
  static HttpHead parse(byte[] bytes, int offset, int length) throws IOException {
    String text = new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
    String startLine = null;
    List<String[]> headers = new ArrayList<>(16);
    int at = 0;
    int end = text.length();
    while (at < end) {
      int lf = text.indexOf('\n', at);
      int next = lf < 0 ? end : lf + 1;
      int lineEnd = lf < 0 ? end : (lf > at && text.charAt(lf - 1) == '\r' ? lf - 1 : lf);
      if (startLine == null) {
        startLine = text.substring(at, lineEnd);
        if (startLine.isBlank()) {
          throw new Malformed("empty start line");
        }
      } else if (lineEnd > at) {
        int colon = text.indexOf(':', at);
        if (colon <= at || colon >= lineEnd) {
          throw new Malformed("malformed header line");
        }
        headers.add(new String[] {text.substring(at, colon).strip(), text.substring(colon + 1, lineEnd).strip()});
      }
      at = next;
    }
    if (startLine == null) {
      throw new Malformed("empty start line");
    }
    return new HttpHead(startLine, headers);
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

  String[] startParts() {
    return startLine.split(" ", 3);
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
    String lower = name.toLowerCase(Locale.ROOT); // the same string when already lower case
    if (HOP_BY_HOP.contains(lower)) {
      return true;
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
