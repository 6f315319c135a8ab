package dev.firedrill.proxy;

import dev.firedrill.net.http1.Http1Body;
import dev.firedrill.net.http1.Http1Head;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
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

  /**
   * Hop-by-hop headers (RFC 9110 7.6.1); the proxy sets its own framing and connection handling.
   */
  private static final String[] HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade"
  };

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

  /**
   * Whether the client keeps its connection after this request ({@code parts}: its start line's).
   * The proxy keeps HTTP/1.1 connections only, whatever an HTTP/1.0 client asks.
   */
  static boolean keepAlive(Http1Head request, String[] parts) {
    return parts[2].equals("HTTP/1.1") && !request.hasToken("Connection", "close");
  }

  /**
   * Appends the head sent upstream for {@code request}, whose body (as forwarded) is {@code
   * bodyLength} bytes.
   */
  void requestHead(Http1Head request, String[] parts, int bodyLength, ByteBuf wire)
      throws IOException {
    List<String[]> headers = endToEnd(request, SET_BY_PROXY);
    headers.add(0, new String[] {"Host", upstreamAuthority});
    if (bodyLength > 0 || request.contentLength() >= 0 || request.chunked()) {
      headers.add(new String[] {"Content-Length", Integer.toString(bodyLength)});
    }
    wire.head(parts[0] + " " + target(parts[1]) + " HTTP/1.1", headers);
  }

  private String target(String target) {
    String path = target;
    if (!target.startsWith("/") && target.contains("://")) { // absolute-form
      URI uri = URI.create(target);
      path =
          (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
              + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }
    return pathPrefix + path;
  }

  /** A response's body as the proxy relays it, and what becomes of both connections after it. */
  record Response(Http1Body body, boolean upstreamReusable, boolean clientOpen) {}

  /**
   * The final response {@code head}'s framing; the head sent to the client is appended to {@code
   * wire}.
   */
  static Response responseHead(Http1Head head, boolean headRequest, boolean keepAlive, ByteBuf wire)
      throws IOException {
    String[] parts = head.startParts();
    Http1Body body = Http1Body.ofResponse(head, headRequest);
    boolean upstreamReusable =
        !body.isUntilClose()
            && parts[0].equals("HTTP/1.1")
            && !head.hasToken("Connection", "close");
    boolean clientOpen = keepAlive && !body.isUntilClose();

    List<String[]> headers = endToEnd(head, CONTENT_LENGTH);
    if (body.isChunked()) {
      headers.add(new String[] {"Transfer-Encoding", "chunked"});
    } else if (body.length() >= 0) {
      headers.add(new String[] {"Content-Length", Long.toString(body.length())});
    } else if (body.isNone()) { // a HEAD answer says the length the body would have
      head.header("Content-Length")
          .ifPresent(value -> headers.add(new String[] {"Content-Length", value}));
    }
    if (!clientOpen) {
      headers.add(new String[] {"Connection", "close"});
    }
    wire.head("HTTP/1.1 " + parts[1] + (parts.length > 2 ? " " + parts[2] : ""), headers);
    return new Response(body, upstreamReusable, clientOpen);
  }

  /**
   * Whether a response start line is an interim (1xx, not 101) one, skipped by the proxy;
   * IOException when malformed.
   */
  static boolean interim(Http1Head head) throws IOException {
    String[] parts = head.startParts();
    if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
      throw new IOException("malformed status line");
    }
    return parts[1].startsWith("1") && !parts[1].equals("101");
  }

  /**
   * {@code head}'s headers without hop-by-hop ones, those its Connection names, and the {@code
   * extra} names given (compared without regard to case).
   */
  static List<String[]> endToEnd(Http1Head head, Set<String> extra) {
    List<String> named = null; // names the Connection header lists
    for (String[] header : head.headers()) {
      if (header[0].equalsIgnoreCase("Connection")) {
        for (String part : header[1].split(",")) {
          if (named == null) {
            named = new ArrayList<>(2);
          }
          named.add(part.strip());
        }
      }
    }
    List<String[]> kept = new ArrayList<>(head.headers().size() + 3);
    for (String[] header : head.headers()) {
      if (!dropped(header[0], extra, named)) {
        kept.add(header);
      }
    }
    return kept;
  }

  private static boolean dropped(String name, Set<String> extra, List<String> named) {
    for (String hop :
        HOP_BY_HOP) { // equalsIgnoreCase compares lengths first: no lower-case copy per header
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
}
