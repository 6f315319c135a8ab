package dev.firedrill.proxy;

import dev.firedrill.net.http1.Http1Body;
import dev.firedrill.net.http1.Http1Head;
import dev.firedrill.net.http1.Http1Reader;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * One client connection served by the {@link HttpEventLoop}, one request at a time: read a whole
 * plain request, forward it (rewritten by {@link Forwarding}) in one write, pass the response
 * through (head rewritten, body verbatim up to its end as its {@link Http1Body} finds it), one
 * write per read from the upstream. Never blocks: each step runs when its channel is ready. Both
 * connections are read through an {@link Http1Reader}; the client's goes with it when the
 * connection is handed over.
 */
final class LoopExchange {

  private static final long READ_NANOS = UpstreamPool.READ_TIMEOUT_MS * 1_000_000L;
  private static final long CONNECT_NANOS = UpstreamPool.CONNECT_TIMEOUT_MS * 1_000_000L;

  private enum State {
    /** Waiting for the next request from the client. */
    REQUEST,
    /** Connecting to the upstream, then writing the request. */
    CONNECT,
    SEND,
    /** Reading the response head, then relaying its body. */
    HEAD,
    BODY,
    /** The response is whole in {@code out}; once written, the next request or the end. */
    DONE
  }

  private final HttpEventLoop loop;
  private final SocketChannel client;
  private SelectionKey clientKey;

  /** The client's input; a request must fit it whole, head and body, to stay in the loop. */
  private final Http1Reader in;

  /** The head of the request being read, while its body is still coming. */
  private Http1Head pending;

  private final ByteBuf request = new ByteBuf();
  private ByteBuffer requestOut;
  private final ByteBuf out = new ByteBuf();
  private ByteBuffer outBuffer;
  private State state = State.REQUEST;
  private long deadline;

  /** How long a kept-alive client may wait between requests, and a request take to arrive. */
  private final long idleNanos;

  private final long requestNanos;
  private boolean keepAlive;
  private boolean headRequest;
  private boolean retried;
  private boolean clientOpen;
  private boolean clientEof;
  private HttpEventLoop.Upstream upstream;
  private boolean upstreamReusable;
  private boolean untilClose;
  private Http1Body body;

  LoopExchange(HttpEventLoop loop, SocketChannel client) {
    this.loop = loop;
    this.client = client;
    this.in = new Http1Reader(Http1Reader.Source.of(client));
    this.idleNanos = loop.limits.idle().toNanos();
    this.requestNanos = loop.limits.request().toNanos();
    this.deadline = System.nanoTime() + idleNanos;
  }

  void register(Selector selector) throws IOException {
    clientKey = client.register(selector, SelectionKey.OP_READ, this);
  }

  /** One of its channels is ready; what to do follows from the state, not from stale readiness. */
  void ready(SelectionKey key) {
    try {
      if (key == clientKey) {
        if (outBuffer != null && key.isWritable()) {
          flush();
        }
        if (key.isValid() && key.isReadable()) {
          readClient();
        }
      } else if (upstream != null && key == upstream.key) {
        switch (state) {
          case CONNECT -> connected();
          case SEND -> send();
          case HEAD, BODY -> readResponse();
          default -> {}
        }
      }
    } catch (IOException | RuntimeException e) {
      close(); // the client sees its connection end
    }
  }

  /** Once a second: ends what has waited too long, as the blocking handler's socket timeouts do. */
  void tick(long now) {
    if (now - deadline < 0) {
      return;
    }
    switch (state) {
      case CONNECT -> upstreamFailed("unreachable", new IOException("connect timed out"));
      case HEAD -> {
        dropUpstream();
        answer(
            504,
            "upstream "
                + loop.forwarding.upstreamAuthority()
                + " did not answer within "
                + UpstreamPool.READ_TIMEOUT_MS / 1000
                + "s");
      }
      default -> close();
    }
  }

  /**
   * Reads what the client sent. The client stays registered for reads during an exchange too, so
   * that its key's interest does not change twice per request (two epoll_ctl calls); what it sends
   * meanwhile (a pipelined request, or the end of its stream) waits in the buffer.
   */
  private void readClient() throws IOException {
    // A request's first byte starts its clock, which later bytes do not restart: a client sending
    // a byte a second is cut when its request has had its time, not kept for ever.
    boolean between = state == State.REQUEST && pending == null && in.buffered() == 0;
    int n = in.fill();
    if (n < 0) {
      if (state == State.REQUEST) {
        close();
        return;
      }
      clientEof = true;
    }
    if (state == State.REQUEST) {
      if (between && n > 0) {
        deadline = System.nanoTime() + requestNanos;
      }
      nextRequest();
    } else {
      clientKey.interestOps(clientInterest());
    }
  }

  /** Reads while there is room and no end of stream; writes while the answer is not all out. */
  private int clientInterest() {
    int ops = clientEof || in.full() ? 0 : SelectionKey.OP_READ;
    return outBuffer != null ? ops | SelectionKey.OP_WRITE : ops;
  }

  /**
   * Starts the buffered request if it is whole and plain; hands the connection over if it is not
   * plain; answers 400 (and closes) if it is not HTTP.
   */
  private void nextRequest() throws IOException {
    if (pending == null) {
      try {
        pending = in.nextHead(); // a head above the buffer fails: the connection closes
      } catch (Http1Head.Malformed e) {
        keepAlive = false;
        answer(400, "malformed request: " + e.getMessage());
        return;
      }
      if (pending == null) {
        return;
      }
    }
    Http1Head head = pending;
    String[] parts = head.startParts();
    long length;
    try {
      length = head.contentLength();
    } catch (IOException e) {
      handOver(); // the blocking handler deals with it as it always has
      return;
    }
    if (!loop.toxics.active().isEmpty()
        || parts.length != 3
        || !parts[2].startsWith("HTTP/1.")
        || head.header("Transfer-Encoding").isPresent()
        || head.header("Expect").isPresent()
        || in.lastHeadLength() + Math.max(length, 0) > Http1Reader.BUFFER) {
      handOver();
      return;
    }
    int bodyLength = (int) Math.max(length, 0);
    if (in.buffered() < bodyLength) {
      return; // the body is still coming
    }
    pending = null;
    loop.metrics.request("none");
    keepAlive = Forwarding.keepAlive(head, parts);
    headRequest = parts[0].equals("HEAD");
    request.reset();
    loop.forwarding.requestHead(head, parts, bodyLength, request);
    in.take(bodyLength, request); // head and body in one write
    retried = false;
    forward(false);
  }

  private void handOver() {
    Http1Head head = pending;
    pending = null;
    loop.handOver(this, clientKey, in, head);
  }

  /** Sends the request on an idle upstream connection, or on a new one when {@code fresh}. */
  private void forward(boolean fresh) {
    try {
      upstream = loop.upstream(this, fresh);
    } catch (IOException e) {
      upstream = null;
      answer(
          502,
          "upstream " + loop.forwarding.upstreamAuthority() + " unreachable: " + e.getMessage());
      return;
    }
    requestOut = ByteBuffer.wrap(request.array(), 0, request.size());
    deadline = System.nanoTime() + CONNECT_NANOS;
    if (upstream.channel.isConnectionPending()) {
      state = State.CONNECT;
      upstream.key.interestOps(SelectionKey.OP_CONNECT);
      return;
    }
    state = State.SEND;
    send();
  }

  private void connected() {
    try {
      upstream.channel.finishConnect();
    } catch (IOException e) {
      upstreamFailed("unreachable", e);
      return;
    }
    state = State.SEND;
    send();
  }

  private void send() {
    try {
      upstream.channel.write(requestOut);
    } catch (IOException e) {
      upstreamFailed("failed", e);
      return;
    }
    if (requestOut.hasRemaining()) {
      upstream.key.interestOps(SelectionKey.OP_WRITE);
      return;
    }
    state = State.HEAD;
    deadline = System.nanoTime() + READ_NANOS;
    upstream.key.interestOps(SelectionKey.OP_READ);
  }

  private void readResponse() throws IOException {
    HttpEventLoop.Upstream up = upstream;
    int n;
    try {
      n = up.in.fill();
    } catch (IOException e) {
      if (state == State.HEAD) {
        upstreamFailed("failed", e);
        return;
      }
      throw e;
    }
    if (n < 0) {
      if (state == State.HEAD) {
        upstreamFailed(
            "failed",
            new EOFException(
                up.in.buffered() == 0
                    ? "upstream closed the connection before answering"
                    : "stream ended inside a head"));
      } else if (body.done() || untilClose) {
        upstreamReusable = false;
        finish();
      } else {
        close(); // cut mid-body: so is the client's response
      }
      return;
    }
    deadline = System.nanoTime() + READ_NANOS;
    if (state == State.HEAD && !readHead()) {
      return;
    }
    up.in.passBody(body, out);
    if (body.done()) {
      upstreamReusable &=
          up.in.buffered() == 0; // bytes after the response: the upstream is out of step
      finish();
    } else {
      flush();
    }
  }

  /** Reads the final response head, interim ones skipped; false while it is not whole. */
  private boolean readHead() {
    while (true) {
      try {
        Http1Head head = upstream.in.nextHead();
        if (head == null) {
          return false;
        }
        if (Forwarding.interim(head)) {
          continue;
        }
        out.reset();
        Forwarding.Response framing = Forwarding.responseHead(head, headRequest, keepAlive, out);
        body = framing.body();
        upstreamReusable = framing.upstreamReusable();
        clientOpen = framing.clientOpen();
        untilClose = body.isUntilClose();
        state = State.BODY;
        return true;
      } catch (IOException | RuntimeException e) {
        upstreamFailed(
            "failed", e instanceof IOException io ? io : new IOException(e.getMessage()));
        return false;
      }
    }
  }

  /**
   * The upstream failed before answering: a reused connection (which the upstream may have closed
   * while idle) is retried once on a new one, as the blocking handler does; else the client gets
   * 502.
   */
  private void upstreamFailed(String how, IOException e) {
    boolean reused = upstream != null && upstream.reused;
    dropUpstream();
    if (reused && !retried) {
      retried = true;
      forward(true);
      return;
    }
    answer(
        502, "upstream " + loop.forwarding.upstreamAuthority() + " " + how + ": " + e.getMessage());
  }

  private void dropUpstream() {
    if (upstream != null) {
      upstream.close();
      upstream = null;
    }
  }

  /** Answers the proxy's own JSON error; the connection stays open as the request asked. */
  private void answer(int status, String message) {
    out.reset();
    HttpProxyHandler.answer(out, status, message, !keepAlive);
    clientOpen = keepAlive;
    state = State.DONE;
    flush();
  }

  /**
   * The whole response is in {@code out} (or written): gives the upstream back, and writes the
   * rest.
   */
  private void finish() {
    if (upstream != null) {
      if (upstreamReusable) {
        loop.release(upstream);
      } else {
        upstream.close();
      }
      upstream = null;
    }
    state = State.DONE;
    flush();
  }

  /** Writes {@code out}; when written, reads on (the upstream, or the client's next request). */
  private void flush() {
    if (outBuffer == null) {
      outBuffer = ByteBuffer.wrap(out.array(), 0, out.size());
    }
    try {
      client.write(outBuffer);
    } catch (IOException e) {
      close();
      return;
    }
    if (outBuffer.hasRemaining()) {
      deadline =
          System.nanoTime()
              + READ_NANOS; // a slow reader has 60 s per write, not for the whole body
      clientKey.interestOps(clientInterest());
      if (upstream != null) {
        upstream.key.interestOps(0); // backpressure: the upstream waits until the client has read
      }
      return;
    }
    outBuffer = null;
    out.reset();
    clientKey.interestOps(clientInterest());
    if (state == State.BODY) {
      upstream.key.interestOps(SelectionKey.OP_READ);
      return;
    }
    if (state != State.DONE) {
      return;
    }
    if (!clientOpen) {
      close();
      return;
    }
    state = State.REQUEST;
    // A pipelined request's start already waits in the buffer: its clock runs from now.
    deadline = System.nanoTime() + (in.buffered() > 0 ? requestNanos : idleNanos);
    try {
      nextRequest(); // a pipelined request may be buffered already
    } catch (IOException | RuntimeException e) {
      close();
      return;
    }
    if (!clientKey.isValid()) {
      return; // handed over
    }
    if (state == State.REQUEST && clientEof) {
      close(); // the client ended its stream and no whole request is left
      return;
    }
    clientKey.interestOps(clientInterest()); // the buffer has room again
  }

  /** Closes the client connection and the upstream one it holds. */
  void close() {
    dropUpstream();
    clientKey.cancel();
    try {
      client.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    loop.ended(this);
  }
}
