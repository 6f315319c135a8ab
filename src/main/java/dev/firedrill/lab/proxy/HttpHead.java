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

  static HttpHead parse(byte[] bytes) throws IOException {
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    String[] lines = text.split("\r?\n");
    if (lines.length == 0 || lines[0].isBlank()) {
      throw new IOException("empty start line");
    }
    List<String[]> headers = new ArrayList<>();
    for (int i = 1; i < lines.length; i++) {
      if (lines[i].isEmpty()) {
        continue;
      }
      int colon = lines[i].indexOf(':');
      if (colon <= 0) {
        throw new IOException("malformed header line");
      }
      headers.add(new String[] {lines[i].substring(0, colon).strip(), lines[i].substring(colon + 1).strip()});
    }
    return new HttpHead(lines[0], headers);
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

  /** Headers without hop-by-hop ones, those Connection names, and the {@code extra} names given. */
  List<String[]> endToEnd(Set<String> extra) {
    Set<String> drop = new java.util.HashSet<>(HOP_BY_HOP);
    extra.forEach(name -> drop.add(name.toLowerCase(Locale.ROOT)));
    for (String[] header : headers) {
      if (header[0].equalsIgnoreCase("Connection")) {
        for (String part : header[1].split(",")) {
          drop.add(part.strip().toLowerCase(Locale.ROOT));
        }
      }
    }
    List<String[]> kept = new ArrayList<>();
    for (String[] header : headers) {
      if (!drop.contains(header[0].toLowerCase(Locale.ROOT))) {
        kept.add(header);
      }
    }
    return kept;
  }

  static void write(OutputStream out, String startLine, List<String[]> headers) throws IOException {
    StringBuilder text = new StringBuilder(256).append(startLine).append("\r\n");
    for (String[] header : headers) {
      text.append(header[0]).append(": ").append(header[1]).append("\r\n");
    }
    text.append("\r\n");
    out.write(text.toString().getBytes(StandardCharsets.ISO_8859_1));
  }
}
