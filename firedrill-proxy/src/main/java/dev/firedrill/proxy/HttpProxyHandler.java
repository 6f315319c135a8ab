package dev.firedrill.proxy;

import dev.firedrill.net.http1.Http1Body;
import dev.firedrill.net.http1.Http1Head;
import dev.firedrill.net.http1.Http1Reader;
import dev.firedrill.time.Clock;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * HTTP mode, with toxics: reads requests from a client connection, applies the toxics each request
 * draws, and forwards method, target, headers (traceparent and baggage among them) and body to the
 * upstream, on a thread of the connection's own. {@link HttpEventLoop} hands it the connections
 * whose next request meets a toxic or is anything but plain, with the connection's reader (so with
 * whatever the loop had read ahead) and the head of that request.
 */
final class HttpProxyHandler {

  static final int MAX_BODY = 8 * 1024 * 1024;

  /** How long one read of a request's body or the upstream's answer may wait. */
  static final int IDLE_TIMEOUT_MS = 60_000;

  private static final int MAX_REQUESTS_PER_CONNECTION = 1_000_000;

  private final UpstreamPool upstream;
  private final Forwarding forwarding;
  private final String upstreamAuthority;
  private final ToxicTable toxics;
  private final ProxyMetrics metrics;
  private final Clock clock;
  private final ClientLimits limits;

  HttpProxyHandler(
      URI upstreamUrl,
      UpstreamPool upstream,
      ToxicTable toxics,
      ProxyMetrics metrics,
      Clock clock,
      ClientLimits limits) {
    this.limits = limits;
    this.upstream = upstream;
    this.forwarding = new Forwarding(upstreamUrl);
    this.upstreamAuthority = forwarding.upstreamAuthority();
    this.toxics = toxics;
    this.metrics = metrics;
    this.clock = clock;
  }

  /** What the connection does after one exchange. */
  private enum Next {
    KEEP,
    CLOSE
  }

  /**
   * Serves {@code client} until it closes, starting with {@code first} (the request the event loop
   * handed over; null: read the next one) and reading on, blocking, with the loop's reader.
   */
  void handle(Socket client, Http1Reader in, Http1Head first) throws IOException {
    client.setTcpNoDelay(true);
    client.setSoTimeout(IDLE_TIMEOUT_MS);
    InputStream raw = client.getInputStream();
    in.source(Http1Reader.Source.of(raw));
    // Per connection, reused by every request on it: the response goes out in one write per 16 KiB
    // (head and a small body together), the request to the upstream in one write (head and body).
    OutputStream out = new BufferedOutputStream(client.getOutputStream(), 16 * 1024);
    Buffers buffers = new Buffers();
    Http1Head next = first;
    for (int served = 0; served < MAX_REQUESTS_PER_CONNECTION; served++) {
      Http1Head head = next;
      next = null;
      try {
        if (head == null) {
          head = nextHead(client, in, raw);
        }
      } catch (SocketTimeoutException e) {
        return; // idle keep-alive connection, or a request too slow to arrive
      } catch (Http1Head.Malformed e) {
        answer(out, 400, "malformed request: " + e.getMessage(), true);
        return;
      }
      if (head == null) {
        return;
      }
      try {
        if (exchange(head, client, in, out, buffers) == Next.CLOSE || client.isClosed()) {
          return;
        }
      } finally {
        buffers.reset();
      }
    }
  }

  /**
   * The next request's head, as the event loop reads one: the client may wait {@link
   * ClientLimits#idle()} to start it, then has {@link ClientLimits#request()} from its first byte
   * to finish it, however slowly the bytes come (each read waits only for what is left).
   */
  private Http1Head nextHead(Socket client, Http1Reader in, InputStream raw) throws IOException {
    long requestNanos = limits.request().toNanos();
    long[] deadline = {in.buffered() > 0 ? clock.nanoTime() + requestNanos : 0};
    client.setSoTimeout((int) limits.idle().toMillis());
    in.source(
        (into, offset, length) -> {
          if (deadline[0] != 0) {
            long left = deadline[0] - clock.nanoTime();
            if (left <= 0) {
              throw new SocketTimeoutException("request head not whole in time");
            }
            client.setSoTimeout((int) Math.max(1, (left + 999_999) / 1_000_000));
          }
          int n = raw.read(into, offset, length);
          if (n > 0 && deadline[0] == 0) {
            deadline[0] = clock.nanoTime() + requestNanos;
          }
          return n;
        });
    try {
      return in.readHead();
    } finally {
      in.source(Http1Reader.Source.of(raw));
      client.setSoTimeout(IDLE_TIMEOUT_MS);
    }
  }

  /**
   * A connection's reusable buffers: the request body as read, and the request as sent upstream.
   */
  private static final class Buffers {
    final ByteBuf body = new ByteBuf();
    final ByteBuf request = new ByteBuf();

    void reset() {
      body.reset();
      request.reset();
    }
  }

  private Next exchange(
      Http1Head request, Socket client, Http1Reader in, OutputStream out, Buffers buffers)
      throws IOException {
    String[] parts = request.startParts();
    if (parts.length != 3 || !parts[2].startsWith("HTTP/1.")) {
      answer(out, 400, "expected an HTTP/1.x request line", true);
      return Next.CLOSE;
    }
    boolean keepAlive = Forwarding.keepAlive(request, parts);
    Applied applied = Applied.draw(toxics.active());
    metrics.request(applied.label());

    // Upstream side: before the request reaches the upstream.
    Applied.sleep(clock, applied.latency(ToxicStream.UPSTREAM));
    Optional<ActiveToxic> error = applied.first(ToxicKind.Error.class, null);
    if (error.isPresent()) {
      boolean expectsBody = request.contentLength() > 0 || request.chunked();
      if (expectsBody && request.hasToken("Expect", "100-continue")) {
        keepAlive = false; // answered before the body: the connection cannot be reused
      } else if (readBody(request, in, out, false, buffers.body) < 0) {
        return Next.CLOSE;
      }
      int status = ((ToxicKind.Error) error.get().toxic().kind()).status();
      answer(
          out,
          status,
          "injected by firedrill proxy toxic " + error.get().toxic().name(),
          !keepAlive);
      return keepAlive ? Next.KEEP : Next.CLOSE;
    }
    if (applied.first(ToxicKind.Reset.class, ToxicStream.UPSTREAM).isPresent()) {
      Applied.reset(client);
      return Next.CLOSE;
    }
    Optional<ActiveToxic> holdUp = applied.first(ToxicKind.Timeout.class, ToxicStream.UPSTREAM);
    if (holdUp.isPresent()
        && Applied.hold(holdUp.get(), clock, () -> peerClosed(client, in))
            != Applied.HoldEnd.RELEASED) {
      return Next.CLOSE;
    }

    int bodyLength = readBody(request, in, out, true, buffers.body);
    if (bodyLength < 0) {
      return Next.CLOSE;
    }
    boolean head = parts[0].equals("HEAD");
    long upstreamRate = applied.bandwidth(ToxicStream.UPSTREAM);
    ByteBuf wire = buffers.request;
    forwarding.requestHead(request, parts, bodyLength, wire);
    if (upstreamRate <= 0) {
      wire.write(buffers.body.array(), 0, bodyLength); // head and body in one write
    }

    UpstreamPool.Connection connection = null;
    Http1Head response = null;
    for (int attempt = 0;
        attempt < 2 && response == null;
        attempt++) { // a stale pooled connection is retried once, on a new one
      try {
        connection = attempt == 0 ? upstream.acquire() : upstream.open();
      } catch (IOException e) {
        answer(
            out,
            502,
            "upstream " + upstreamAuthority + " unreachable: " + e.getMessage(),
            !keepAlive);
        return keepAlive ? Next.KEEP : Next.CLOSE;
      }
      try {
        send(connection, wire, buffers.body, upstreamRate);
        response = readResponseHead(connection.input());
      } catch (SocketTimeoutException e) {
        connection.closeQuietly();
        answer(
            out,
            504,
            "upstream "
                + upstreamAuthority
                + " did not answer within "
                + UpstreamPool.READ_TIMEOUT_MS / 1000
                + "s",
            !keepAlive);
        return keepAlive ? Next.KEEP : Next.CLOSE;
      } catch (IOException e) {
        connection.closeQuietly();
        if (!connection.reused()) {
          answer(
              out, 502, "upstream " + upstreamAuthority + " failed: " + e.getMessage(), !keepAlive);
          return keepAlive ? Next.KEEP : Next.CLOSE;
        }
      }
    }
    if (response == null) {
      answer(out, 502, "upstream " + upstreamAuthority + " closed the connection", !keepAlive);
      return keepAlive ? Next.KEEP : Next.CLOSE;
    }

    // Downstream side: before the response reaches the client.
    Applied.sleep(clock, applied.latency(ToxicStream.DOWNSTREAM));
    if (applied.first(ToxicKind.Reset.class, ToxicStream.DOWNSTREAM).isPresent()) {
      connection.closeQuietly();
      Applied.reset(client);
      return Next.CLOSE;
    }
    Optional<ActiveToxic> holdDown = applied.first(ToxicKind.Timeout.class, ToxicStream.DOWNSTREAM);
    if (holdDown.isPresent()
        && Applied.hold(holdDown.get(), clock, () -> peerClosed(client, in))
            != Applied.HoldEnd.RELEASED) {
      connection.closeQuietly();
      return Next.CLOSE;
    }
    return relayResponse(
        response,
        head,
        connection,
        out,
        keepAlive,
        applied.bandwidth(ToxicStream.DOWNSTREAM),
        buffers.request);
  }

  /**
   * Reads the request body, whole (at most {@link #MAX_BODY}, a chunked one decoded), into {@code
   * into}; its length, or -1 after answering 413.
   */
  private int readBody(
      Http1Head request, Http1Reader in, OutputStream out, boolean continueFirst, ByteBuf into)
      throws IOException {
    Http1Body body = Http1Body.ofRequest(request);
    if (body.done()) {
      return 0;
    }
    if (body.length() > MAX_BODY) {
      answer(
          out,
          413,
          "request body of " + body.length() + " bytes is above the proxy's limit of " + MAX_BODY,
          true);
      return -1;
    }
    if (continueFirst && request.hasToken("Expect", "100-continue")) {
      out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
    }
    in.readBodyData(
        body,
        (bytes, offset, n) -> {
          if (into.size() + n > MAX_BODY) {
            throw new IOException("chunked request body above " + MAX_BODY + " bytes");
          }
          into.write(bytes, offset, n);
        });
    return into.size();
  }

  /**
   * Whether the client has closed its side, checked without blocking for more than a millisecond.
   */
  private static boolean peerClosed(Socket client, Http1Reader in) throws IOException {
    if (in.buffered() > 0) {
      return false; // a pipelined request: the client is there
    }
    int previous = client.getSoTimeout();
    client.setSoTimeout(1);
    try {
      return in.fill() < 0;
    } catch (SocketTimeoutException e) {
      return false;
    } finally {
      client.setSoTimeout(previous);
    }
  }

  /**
   * Writes the request, one write for head and body; under a bandwidth toxic {@code wire} holds the
   * head only and the body follows, paced.
   */
  private void send(
      UpstreamPool.Connection connection, ByteBuf wire, ByteBuf body, long bytesPerSecond)
      throws IOException {
    OutputStream raw = connection.socket().getOutputStream();
    wire.writeTo(raw);
    if (bytesPerSecond > 0 && body.size() > 0) {
      new Throttle(Http1Reader.Sink.of(raw), bytesPerSecond, clock)
          .write(body.array(), 0, body.size());
    }
  }

  /** The final response head; interim 1xx responses are skipped. */
  private static Http1Head readResponseHead(Http1Reader input) throws IOException {
    for (int interim = 0; interim < 10; interim++) {
      Http1Head head = input.readHead();
      if (head == null) {
        throw new java.io.EOFException("upstream closed the connection before answering");
      }
      if (!Forwarding.interim(head)) {
        return head;
      }
    }
    throw new IOException("too many interim responses");
  }

  private Next relayResponse(
      Http1Head response,
      boolean headRequest,
      UpstreamPool.Connection connection,
      OutputStream out,
      boolean keepAlive,
      long bytesPerSecond,
      ByteBuf wire)
      throws IOException {
    wire.reset(); // the request went out already: the buffer is free for the response head
    Forwarding.Response framing = Forwarding.responseHead(response, headRequest, keepAlive, wire);
    wire.writeTo(out); // buffered: goes out with the body (or its first 16 KiB) at the flush
    Http1Reader.Sink sink = Http1Reader.Sink.of(out);
    if (bytesPerSecond > 0) {
      out.flush();
      Http1Reader.Sink flushing =
          (bytes, offset, n) -> {
            out.write(bytes, offset, n);
            out.flush();
          };
      sink = new Throttle(flushing, bytesPerSecond, clock);
    }
    try {
      connection.input().relayBody(framing.body(), sink);
      out.flush();
    } catch (IOException e) {
      // Upstream cut mid-body, or a client gone (checkout giving up at its timeout): either way the
      // upstream connection is closed here, not left open and unpooled until the upstream drops it.
      connection.closeQuietly();
      throw e; // the client sees its connection end mid-response
    }
    if (framing.upstreamReusable()) {
      upstream.release(connection);
    } else {
      connection.closeQuietly();
    }
    return framing.clientOpen() ? Next.KEEP : Next.CLOSE;
  }

  /** A JSON error answer from the proxy itself. */
  static void answer(OutputStream out, int status, String message, boolean close)
      throws IOException {
    ByteBuf answer = new ByteBuf();
    answer(answer, status, message, close);
    answer.writeTo(out);
    out.flush();
  }

  /** Appends a JSON error answer from the proxy itself to {@code out}. */
  static void answer(ByteBuf out, int status, String message, boolean close) {
    byte[] body = AdminJson.error(status, message).getBytes(StandardCharsets.UTF_8);
    List<String[]> headers = new ArrayList<>();
    headers.add(new String[] {"Content-Type", "application/json"});
    headers.add(new String[] {"Content-Length", Integer.toString(body.length)});
    if (close) {
      headers.add(new String[] {"Connection", "close"});
    }
    out.head("HTTP/1.1 " + status + " " + reason(status), headers);
    out.write(body, 0, body.length);
  }

  static String reason(int status) {
    return switch (status) {
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 408 -> "Request Timeout";
      case 409 -> "Conflict";
      case 413 -> "Content Too Large";
      case 429 -> "Too Many Requests";
      case 500 -> "Internal Server Error";
      case 502 -> "Bad Gateway";
      case 503 -> "Service Unavailable";
      case 504 -> "Gateway Timeout";
      default -> status < 500 ? "Client Error" : "Server Error";
    };
  }
}
