package dev.firedrill.proxy;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Set;

/**
 * What HTTP mode changes in the heads it forwards, shared by the blocking handler and the event
 * loop so both forward exactly the same: the target behind the upstream's path prefix, {@code Host}
 * set to the upstream, hop-by-hop headers dropped, the proxy's own framing and connection handling.
 */
final class Forwarding {

  private static final Set<String> SET_BY_PROXY = Set.of("Host", "Content-Length", "Expect");
  private static final Set<String> CONTENT_LENGTH = Set.of("Content-Length");

  private final String upstreamAuthority;
  private final String pathPrefix;

  Forwarding(URI upstreamUrl) {
    this.upstreamAuthority = upstreamUrl.getRawAuthority();
    String path = upstreamUrl.getRawPath() == null ? "" : upstreamUrl.getRawPath();
    this.pathPrefix = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }

  String upstreamAuthority() {
    return upstreamAuthority;
  }

  /** Whether the client keeps its connection after this request ({@code parts}: its start line's). */
  static boolean keepAlive(HttpHead request, String[] parts) {
    return parts[2].equals("HTTP/1.1") && !request.hasToken("Connection", "close");
  }

  /** Appends the head sent upstream for {@code request}, whose body (as forwarded) is {@code bodyLength} bytes. */
  void requestHead(HttpHead request, String[] parts, int bodyLength, ByteBuf wire) throws IOException {
    List<String[]> headers = request.endToEnd(SET_BY_PROXY);
    headers.add(0, new String[] {"Host", upstreamAuthority});
    if (bodyLength > 0 || request.contentLength() >= 0 || request.chunked()) {
      headers.add(new String[] {"Content-Length", Integer.toString(bodyLength)});
    }
    HttpHead.write(wire, parts[0] + " " + target(parts[1]) + " HTTP/1.1", headers);
  }

  private String target(String target) {
    String path = target;
    if (!target.startsWith("/") && target.contains("://")) { // absolute-form
      URI uri = URI.create(target);
      path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
          + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }
    return pathPrefix + path;
  }

  /**
   * How a response's body is framed and what becomes of both connections after it.
   *
   * @param length the body's length, or -1 when chunked, until close, or without a body
   */
  record Response(boolean noBody, boolean chunked, long length, boolean untilClose, boolean upstreamReusable,
      boolean clientOpen) {}

  /** The final response {@code head}'s framing; the head sent to the client is appended to {@code wire}. */
  static Response responseHead(HttpHead head, boolean headRequest, boolean keepAlive, ByteBuf wire) throws IOException {
    String[] parts = head.startParts();
    int status = Integer.parseInt(parts[1]);
    boolean noBody = headRequest || status == 204 || status == 304 || (status >= 100 && status < 200);
    boolean chunked = !noBody && head.chunked();
    long length = noBody || chunked ? -1 : head.contentLength();
    boolean untilClose = !noBody && !chunked && length < 0;
    boolean upstreamReusable = !untilClose && parts[0].equals("HTTP/1.1") && !head.hasToken("Connection", "close");
    boolean clientOpen = keepAlive && !untilClose;

    List<String[]> headers = head.endToEnd(CONTENT_LENGTH);
    if (chunked) {
      headers.add(new String[] {"Transfer-Encoding", "chunked"});
    } else if (length >= 0) {
      headers.add(new String[] {"Content-Length", Long.toString(length)});
    } else if (noBody) {
      head.header("Content-Length").ifPresent(value -> headers.add(new String[] {"Content-Length", value}));
    }
    if (!clientOpen) {
      headers.add(new String[] {"Connection", "close"});
    }
    HttpHead.write(wire, "HTTP/1.1 " + parts[1] + (parts.length > 2 ? " " + parts[2] : ""), headers);
    return new Response(noBody, chunked, length, untilClose, upstreamReusable, clientOpen);
  }

  /** Whether a response start line is an interim (1xx, not 101) one, skipped by the proxy; IOException when malformed. */
  static boolean interim(HttpHead head) throws IOException {
    String[] parts = head.startParts();
    if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
      throw new IOException("malformed status line");
    }
    return parts[1].startsWith("1") && !parts[1].equals("101");
  }
}
