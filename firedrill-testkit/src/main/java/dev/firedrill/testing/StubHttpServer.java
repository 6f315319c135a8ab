package dev.firedrill.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP server on 127.0.0.1 that answers every request with one canned response, or misbehaves as
 * a backend can (never answers, answers late, cuts its body with a FIN or a reset, sends one
 * without end, goes away and comes back on the same port), and records what it was sent. Every
 * misbehaving-backend test uses this one server, whatever backend it stands in for. The JDK's
 * server answers behind a {@link SplicingFront} that holds the public port.
 */
public final class StubHttpServer implements AutoCloseable {

  /** What the stub saw: method, path (raw), headers (lower-case names, first value), body. */
  public record Request(String method, String path, Map<String, String> headers, String body) {}

  private final HttpServer server;
  private final SplicingFront front;
  private final int port;
  private final ExecutorService threads;
  private final CountDownLatch released;

  /** The stub that listens: itself, or the one {@link #route} made this one a route of. */
  private final StubHttpServer root;

  /** The root's routes by path prefix, longest first; none on a route. */
  private final List<Map.Entry<String, StubHttpServer>> routes = new CopyOnWriteArrayList<>();

  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private volatile int status = 200;
  private volatile String body = "";
  private volatile String contentType = "application/json";
  private volatile boolean hang;
  private volatile Duration delay = Duration.ZERO;
  private volatile String location;
  private volatile Body bodyMode = Body.WHOLE;
  private volatile boolean gone;
  private volatile String endlessHead = "";
  private volatile String endlessRepeated = " ";
  private final AtomicLong bytesSent = new AtomicLong();
  private int healthyFor;
  private java.util.function.Consumer<StubHttpServer> later;

  /** How the body of an answer is sent. */
  private enum Body {
    WHOLE,
    CUT,
    RESET,
    ENDLESS
  }

  private StubHttpServer() throws IOException {
    root = this;
    threads = Executors.newCachedThreadPool();
    released = new CountDownLatch(1);
    server = listen();
    front = new SplicingFront(server.getAddress().getPort(), threads);
    port = front.port();
  }

  /** A route of {@code root}: its listener and port, answers of its own. */
  private StubHttpServer(StubHttpServer root) {
    this.root = root;
    this.threads = root.threads;
    this.released = root.released;
    this.port = root.port;
    this.server = null;
    this.front = null;
  }

  /**
   * The requests whose raw path starts with {@code prefix} (the longest prefix of several wins) are
   * answered by the stub this returns, which is set up, counts its requests ({@link #after}, {@link
   * #requests}) and misbehaves on its own; every other request by this one. So one backend can
   * serve a healthy API beside a misbehaving one, as Grafana serves its data-source proxy beside
   * its alerting API. The route shares this stub's port: {@link #goneFor} on it takes the whole
   * server away, and {@link #close} is this stub's.
   */
  public StubHttpServer route(String prefix) {
    if (root != this) {
      throw new IllegalStateException("a route has no routes of its own; route from the root");
    }
    StubHttpServer route = new StubHttpServer(this);
    routes.add(Map.entry(prefix, route));
    routes.sort(
        java.util.Comparator.comparingInt(
                (Map.Entry<String, StubHttpServer> e) -> e.getKey().length())
            .reversed());
    return route;
  }

  /** The stub that answers {@code path}: the route with the longest matching prefix, else this. */
  private StubHttpServer answering(String path) {
    return routes.stream()
        .filter(e -> path.startsWith(e.getKey()))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElse(this);
  }

  private HttpServer listen() throws IOException {
    HttpServer listening =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    listening.createContext("/", this::handle);
    listening.setExecutor(threads);
    listening.start();
    return listening;
  }

  public static StubHttpServer start() {
    try {
      return new StubHttpServer();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start a stub HTTP server on 127.0.0.1", e);
    }
  }

  /** Answers every request with this status and body. */
  public StubHttpServer respond(int status, String contentType, String body) {
    this.status = status;
    this.contentType = contentType;
    this.body = body;
    this.hang = false;
    this.location = null;
    this.bodyMode = Body.WHOLE;
    return this;
  }

  public StubHttpServer respondJson(int status, String json) {
    return respond(status, "application/json", json);
  }

  /**
   * Answers the next {@code requests} as set now, and every one after them as {@code then} sets: a
   * backend that starts misbehaving at a known request, not at a time the test guesses.
   */
  public synchronized StubHttpServer after(
      int requests, java.util.function.Consumer<StubHttpServer> then) {
    this.healthyFor = this.requests.size() + requests;
    this.later = then;
    return this;
  }

  /** Answers every request with a redirect to {@code location}, as a login page in front does. */
  public StubHttpServer redirect(int status, String location) {
    respond(status, "text/html", "<html><a href=\"" + location + "\">Found</a></html>");
    this.location = location;
    return this;
  }

  /** Accepts requests and never answers them (until {@link #close}). */
  public StubHttpServer hang() {
    this.hang = true;
    return this;
  }

  /**
   * Answers every request only after {@code delay}, as a slow but healthy backend does (zero: at
   * once again).
   */
  public StubHttpServer delay(Duration delay) {
    this.delay = delay;
    return this;
  }

  /**
   * Sends the status, the headers and a Content-Length for the whole body, then the first half of
   * the body, then closes the connection: a backend (or a proxy in front) dying mid-answer.
   */
  public StubHttpServer cutMidBody() {
    this.bodyMode = Body.CUT;
    return this;
  }

  /**
   * As {@link #cutMidBody}, but the connection ends with a TCP reset (RST), not a FIN: a backend's
   * process killed mid-answer, or a proxy or load balancer in front giving up on it.
   */
  public StubHttpServer resetMidBody() {
    this.bodyMode = Body.RESET;
    return this;
  }

  /**
   * Answers 200 with a chunked body that never ends: {@code head}, then {@code repeated} over and
   * over until the client stops reading or the server closes (a well-formed start, such as a JSON
   * array's opening and its elements, so that only a reader that bounds what it reads stops).
   * {@link #bytesSent} says how much the client was sent.
   */
  public StubHttpServer endlessBody(String head, String repeated) {
    this.endlessHead = head;
    this.endlessRepeated = repeated;
    this.bodyMode = Body.ENDLESS;
    return this;
  }

  /** The bytes of response bodies written so far (those the client's socket accepted). */
  public long bytesSent() {
    return bytesSent.get();
  }

  /**
   * Stops listening and closes every connection at once (the request being answered gets no answer;
   * new ones are refused), and listens again on the same port, answering as before, once {@code
   * away} has passed: a backend restarting mid-drill.
   */
  public StubHttpServer goneFor(Duration away) {
    if (root != this) {
      root.goneFor(away);
      return this;
    }
    gone = true;
    front.drop();
    Thread back =
        new Thread(
            () -> {
              try {
                if (released.await(away.toNanos(), TimeUnit.NANOSECONDS)) {
                  return;
                }
                front.relisten();
                gone = false;
                if (released.getCount() == 0) {
                  front.drop(); // closed while it was coming back
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (IOException e) {
                throw new UncheckedIOException(
                    "cannot listen again on 127.0.0.1:" + port + " after " + away, e);
              }
            },
            "stub-http-back-" + port);
    back.setDaemon(true);
    back.start();
    return this;
  }

  /** Whether the server is away ({@link #goneFor}) now. */
  public boolean gone() {
    return root.gone;
  }

  /** {@code http://127.0.0.1:PORT} with the given path appended. */
  public URI url(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  public int port() {
    return port;
  }

  public List<Request> requests() {
    return List.copyOf(requests);
  }

  public Request lastRequest() {
    if (requests.isEmpty()) {
      throw new AssertionError("the stub server at " + url("") + " received no request");
    }
    return requests.get(requests.size() - 1);
  }

  @Override
  public void close() {
    if (root != this) {
      root.close();
      return;
    }
    released.countDown();
    front.close();
    server.stop(0);
    threads.shutdownNow();
  }

  /** A port on 127.0.0.1 that was just bound and closed, so nothing listens there. */
  public static int closedPort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bind a port on 127.0.0.1", e);
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String requestBody =
          new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      Map<String, String> headers = new java.util.TreeMap<>();
      exchange
          .getRequestHeaders()
          .forEach(
              (name, values) ->
                  headers.put(name.toLowerCase(java.util.Locale.ROOT), values.get(0)));
      String path = exchange.getRequestURI().getRawPath();
      answering(path)
          .answer(exchange, new Request(exchange.getRequestMethod(), path, headers, requestBody));
    }
  }

  /** Records {@code request} as this stub's (a route's, or the root's) and answers it so. */
  private void answer(HttpExchange exchange, Request request) throws IOException {
    try {
      requests.add(request);
      synchronized (this) {
        if (later != null && requests.size() > healthyFor) {
          java.util.function.Consumer<StubHttpServer> then = later;
          later = null; // before it runs, which may set the next change with after()
          then.accept(this);
        }
      }
      if (root.gone) {
        return; // its connection was closed with the listener
      }
      if (hang) {
        released.await(60, TimeUnit.SECONDS);
        return;
      }
      if (!delay.isZero() && released.await(delay.toNanos(), TimeUnit.NANOSECONDS)) {
        return;
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", contentType);
      if (location != null) {
        exchange.getResponseHeaders().set("Location", location);
      }
      Body mode = bodyMode;
      if (mode == Body.ENDLESS) {
        exchange.sendResponseHeaders(200, 0);
        sendWithoutEnd(exchange.getResponseBody());
        return;
      }
      if (mode == Body.RESET) {
        resetWith(exchange, bytes);
        return;
      }
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      OutputStream out = exchange.getResponseBody();
      if (mode == Body.CUT) {
        out.write(bytes, 0, bytes.length / 2);
        out.flush();
        bytesSent.addAndGet(bytes.length / 2);
        // Closing short of the Content-Length makes the server drop the connection.
        return;
      }
      try (out) {
        out.write(bytes);
        bytesSent.addAndGet(bytes.length);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The status line, the headers with a Content-Length for the whole body, and half the body, sent
   * through the front in place of the JDK server, which cannot send a reset; then the reset.
   */
  private void resetWith(HttpExchange exchange, byte[] bytes) throws IOException {
    StringBuilder head =
        new StringBuilder("HTTP/1.1 ")
            .append(status)
            .append(status / 100 == 2 ? " OK" : " Error")
            .append("\r\nContent-Type: ")
            .append(contentType)
            .append("\r\nContent-Length: ")
            .append(bytes.length)
            .append("\r\n");
    if (location != null) {
      head.append("Location: ").append(location).append("\r\n");
    }
    byte[] headBytes = head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII);
    byte[] answer = java.util.Arrays.copyOf(headBytes, headBytes.length + bytes.length / 2);
    System.arraycopy(bytes, 0, answer, headBytes.length, bytes.length / 2);
    SplicingFront.Spliced connection =
        root.front
            .connection(exchange.getRemoteAddress().getPort())
            .orElseThrow(() -> new IOException("no client connection for " + exchange));
    connection.reset(answer);
    bytesSent.addAndGet(bytes.length / 2);
  }

  /** {@code head}, then {@code repeated} over and over, until the client or the server stops. */
  private void sendWithoutEnd(OutputStream out) throws IOException {
    byte[] head = endlessHead.getBytes(StandardCharsets.UTF_8);
    byte[] again =
        endlessRepeated
            .repeat(Math.max(1, 8192 / endlessRepeated.length()))
            .getBytes(StandardCharsets.UTF_8);
    out.write(head);
    bytesSent.addAndGet(head.length);
    while (released.getCount() > 0 && !Thread.currentThread().isInterrupted()) {
      out.write(again); // throws once the client has closed the connection
      bytesSent.addAndGet(again.length);
    }
  }
}
