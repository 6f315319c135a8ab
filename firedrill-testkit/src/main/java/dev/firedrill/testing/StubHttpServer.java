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

/**
 * An HTTP server on 127.0.0.1 that answers every request with one canned response (or never
 * answers), and records what it was sent.
 */
public final class StubHttpServer implements AutoCloseable {

  /** What the stub saw: method, path (raw), headers (lower-case names, first value), body. */
  public record Request(String method, String path, Map<String, String> headers, String body) {}

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final CountDownLatch released = new CountDownLatch(1);
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private volatile int status = 200;
  private volatile String body = "";
  private volatile String contentType = "application/json";
  private volatile boolean hang;
  private volatile Duration delay = Duration.ZERO;
  private volatile String location;
  private int healthyFor;
  private java.util.function.Consumer<StubHttpServer> later;

  private StubHttpServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(threads);
    server.start();
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

  /** Answers every request only after {@code delay}, as a slow but healthy backend does. */
  public StubHttpServer delay(Duration delay) {
    this.delay = delay;
    return this;
  }

  /** {@code http://127.0.0.1:PORT} with the given path appended. */
  public URI url(String path) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
  }

  public int port() {
    return server.getAddress().getPort();
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
    released.countDown();
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
      requests.add(
          new Request(
              exchange.getRequestMethod(),
              exchange.getRequestURI().getRawPath(),
              headers,
              requestBody));
      synchronized (this) {
        if (later != null && requests.size() > healthyFor) {
          later.accept(this);
          later = null;
        }
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
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
