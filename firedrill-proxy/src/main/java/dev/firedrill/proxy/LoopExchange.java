package dev.firedrill.proxy;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Arrays;

/**
 * One client connection served by the {@link HttpEventLoop}, one request at a time: read a whole
 * plain request, forward it (rewritten by {@link Forwarding}) in one write, pass the response
 * through (head rewritten, body verbatim up to its end as {@link BodyScanner} finds it), one write
 * per read from the upstream. Never blocks: each step runs when its channel is ready.
 */
final class LoopExchange {

  /** Client and upstream read buffers; a request must fit whole, head and body, to stay in the loop. */
  static final int BUFFER = 16 * 1024;
  private static final long IDLE_NANOS = HttpProxyHandler.IDLE_TIMEOUT_MS * 1_000_000L;
  private static final long READ_NANOS = UpstreamPool.READ_TIMEOUT_MS * 1_000_000L;
  private static final long CONNECT_NANOS = UpstreamPool.CONNECT_TIMEOUT_MS * 1_000_000L;

  private enum State {
    /** Waiting for the next request from the client. */
    REQUEST,
    /** Connecting to the upstream, then writing the request. */
    CONNECT, SEND,
    /** Reading the response head, then relaying its body. */
    HEAD, BODY,
    /** The response is whole in {@code out}; once written, the next request or the end. */
    DONE
  }

  private final HttpEventLoop loop;
  private final SocketChannel client;
  private SelectionKey clientKey;
  private final byte[] in = new byte[BUFFER];
  private final ByteBuffer inBuffer = ByteBuffer.wrap(in);
  private int inStart;
  private int inEnd;
  private final ByteBuf request = new ByteBuf();
  private ByteBuffer requestOut;
  private final ByteBuf out = new ByteBuf();
  private ByteBuffer outBuffer;
  private State state = State.REQUEST;
  private long deadline = System.nanoTime() + IDLE_NANOS;
  private boolean keepAlive;
  private boolean headRequest;
  private boolean retried;
  private boolean clientOpen;
  private boolean clientEof;
  private HttpEventLoop.Upstream upstream;
  private boolean upstreamReusable;
  private boolean untilClose;
  private BodyScanner body;

  LoopExchange(HttpEventLoop loop, SocketChannel client) {
    this.loop = loop;
    this.client = client;
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
          default -> { }
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
        answer(504, "upstream " + loop.forwarding.upstreamAuthority() + " did not answer within "
            + UpstreamPool.READ_TIMEOUT_MS / 1000 + "s");
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
    if (inEnd == in.length && inStart > 0) {
      compact();
    }
    inBuffer.limit(in.length).position(inEnd);
    int n = client.read(inBuffer);
    if (n < 0) {
      if (state == State.REQUEST) {
        close();
        return;
      }
      clientEof = true;
    } else {
      inEnd += n;
    }
    if (state == State.REQUEST) {
      deadline = System.nanoTime() + IDLE_NANOS;
      nextRequest();
    } else {
      clientKey.interestOps(clientInterest());
    }
  }

  /** Reads while there is room and no end of stream; writes while the answer is not all out. */
  private int clientInterest() {
    int ops = clientEof || inEnd - inStart == in.length ? 0 : SelectionKey.OP_READ;
    return outBuffer != null ? ops | SelectionKey.OP_WRITE : ops;
  }

  private void compact() {
    System.arraycopy(in, inStart, in, 0, inEnd - inStart);
    inEnd -= inStart;
    inStart = 0;
  }

  /** Starts the buffered request if it is whole and plain; hands the connection over if it is not plain. */
  private void nextRequest() throws IOException {
    if (inStart == inEnd) {
      return;
    }
    int headLength = HttpHead.length(in, inStart, inEnd);
    if (headLength < 0) {
      if (inEnd - inStart == in.length) {
        handOver(); // a head above the buffer: the blocking handler refuses it as it always has
      }
      return;
    }
    HttpHead head;
    String[] parts;
    long length;
    try {
      head = HttpHead.parse(in, inStart, headLength);
      parts = head.startParts();
      length = head.contentLength();
    } catch (IOException e) {
      handOver(); // the blocking handler answers 400
      return;
    }
    if (!loop.toxics.active().isEmpty() || parts.length != 3 || !parts[2].startsWith("HTTP/1.")
        || head.header("Transfer-Encoding").isPresent() || head.header("Expect").isPresent()
        || headLength + Math.max(length, 0) > in.length) {
      handOver();
      return;
    }
    int bodyLength = (int) Math.max(length, 0);
    if (inEnd - inStart < headLength + bodyLength) {
      if (inStart + headLength + bodyLength > in.length) {
        compact();
      }
      return; // the body is still coming
    }
    loop.metrics.request("none");
    keepAlive = Forwarding.keepAlive(head, parts);
    headRequest = parts[0].equals("HEAD");
    request.reset();
    loop.forwarding.requestHead(head, parts, bodyLength, request);
    request.write(in, inStart + headLength, bodyLength); // head and body in one write
    inStart += headLength + bodyLength;
    if (inStart == inEnd) {
      inStart = 0;
      inEnd = 0;
    }
    retried = false;
    forward(false);
  }

  private void handOver() {
    byte[] read = Arrays.copyOfRange(in, inStart, inEnd);
    loop.handOver(this, clientKey, read);
  }

  /** Sends the request on an idle upstream connection, or on a new one when {@code fresh}. */
  private void forward(boolean fresh) {
    try {
      upstream = loop.upstream(this, fresh);
    } catch (IOException e) {
      upstream = null;
      answer(502, "upstream " + loop.forwarding.upstreamAuthority() + " unreachable: " + e.getMessage());
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
    if (up.end == up.in.length && up.start > 0) {
      System.arraycopy(up.in, up.start, up.in, 0, up.end - up.start);
      up.end -= up.start;
      up.start = 0;
    }
    int n;
    try {
      n = up.channel.read(ByteBuffer.wrap(up.in, up.end, up.in.length - up.end));
    } catch (IOException e) {
      if (state == State.HEAD) {
        upstreamFailed("failed", e);
        return;
      }
      throw e;
    }
    if (n < 0) {
      if (state == State.HEAD) {
        upstreamFailed("failed", new EOFException(up.start == up.end
            ? "upstream closed the connection before answering" : "stream ended inside a head"));
      } else if (body.done() || untilClose) {
        upstreamReusable = false;
        finish();
      } else {
        close(); // cut mid-body: so is the client's response
      }
      return;
    }
    up.end += n;
    deadline = System.nanoTime() + READ_NANOS;
    if (state == State.HEAD && !readHead()) {
      return;
    }
    int relayed = body.scan(up.in, up.start, up.end - up.start);
    out.write(up.in, up.start, relayed);
    up.start += relayed;
    if (body.done()) {
      upstreamReusable &= up.start == up.end; // bytes after the response: the upstream is out of step
      finish();
    } else {
      up.start = 0;
      up.end = 0;
      flush();
    }
  }

  /** Reads the final response head, interim ones skipped; false while it is not whole. */
  private boolean readHead() {
    HttpEventLoop.Upstream up = upstream;
    while (true) {
      int length = HttpHead.length(up.in, up.start, up.end);
      if (length < 0) {
        if (up.end - up.start == up.in.length) {
          upstreamFailed("failed", new IOException("buffer full"));
        }
        return false;
      }
      try {
        HttpHead head = HttpHead.parse(up.in, up.start, length);
        up.start += length;
        if (Forwarding.interim(head)) {
          continue;
        }
        out.reset();
        Forwarding.Response framing = Forwarding.responseHead(head, headRequest, keepAlive, out);
        body = BodyScanner.of(framing);
        upstreamReusable = framing.upstreamReusable();
        clientOpen = framing.clientOpen();
        untilClose = framing.untilClose();
        state = State.BODY;
        return true;
      } catch (IOException | RuntimeException e) {
        upstreamFailed("failed", e instanceof IOException io ? io : new IOException(e.getMessage()));
        return false;
      }
    }
  }

  /**
   * The upstream failed before answering: a reused connection (which the upstream may have closed
   * while idle) is retried once on a new one, as the blocking handler does; else the client gets 502.
   */
  private void upstreamFailed(String how, IOException e) {
    boolean reused = upstream != null && upstream.reused;
    dropUpstream();
    if (reused && !retried) {
      retried = true;
      forward(true);
      return;
    }
    answer(502, "upstream " + loop.forwarding.upstreamAuthority() + " " + how + ": " + e.getMessage());
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

  /** The whole response is in {@code out} (or written): gives the upstream back, and writes the rest. */
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
      deadline = System.nanoTime() + READ_NANOS; // a slow reader has 60 s per write, not for the whole body
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
    deadline = System.nanoTime() + IDLE_NANOS;
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
