package dev.firedrill.net;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Every HTTP server firedrill opens (the JDK's {@link HttpServer}), built one way:
 *
 * <ul>
 *   <li><b>bind</b>: 127.0.0.1 and a free port unless told otherwise; a listen backlog of 1024;
 *       Nagle off (see {@link #preferNoDelay()}).
 *   <li><b>connections</b>: each connection's request (line, headers and body, the body up to
 *       {@link Builder#maxBody}) is read on a thread of its own ({@code NAME-1}, ...), at most
 *       {@value #MAX_CONNECTIONS} connections at once, more are closed on accept; a request must
 *       arrive whole within {@value #REQUEST_SECONDS} s and an idle connection is closed after
 *       {@value #IDLE_SECONDS} s (the JDK's {@code jdk.httpserver.maxConnections}, {@code
 *       sun.net.httpserver.maxReqTime} and {@code idleInterval}, set by {@link #preferNoDelay()}
 *       unless set already). So clients that send a byte a second hold a connection each for a
 *       while, never a request thread: <b>four slow clients stalled the receiver's four threads</b>
 *       when headers were read on them.
 *   <li><b>threads</b>: a request read whole runs its route when one of a fixed number of request
 *       permits is free, or waits among a bounded queue. <b>When both are full, the request is
 *       answered 503</b> (with {@code Retry-After: 1}) at once: a burst costs clients a retry, and
 *       memory stays bounded by the connections.
 *   <li><b>routes</b>: path to handler per method ({@link Route}), exact or prefix; an optional
 *       {@link Guard} first (authentication); a path without a route gets the not-found answer, a
 *       method the route does not answer gets 405 with {@code Allow} and the server's refusal body.
 *       HEAD is answered once, here, as GET without the body: a route with GET answers HEAD.
 *   <li><b>stop</b>: {@link #close()} answers new requests 503 while those in flight get up to the
 *       grace to finish, then stops the server and its threads and waits at most {@value
 *       #STOP_WAIT_SECONDS} s more for them: it never waits forever.
 * </ul>
 *
 * Handlers answer and close their exchange themselves, and may do so later, from another thread.
 */
public final class LoopbackHttpServer implements AutoCloseable {

  public static final String NO_DELAY = "sun.net.httpserver.nodelay";

  /** Connections open at once per server; the JDK closes more as they are accepted. */
  public static final int MAX_CONNECTIONS = 512;

  /** Seconds a request (line, headers and body) has to arrive whole. */
  public static final int REQUEST_SECONDS = 10;

  /** Seconds a kept-alive connection may idle. */
  public static final int IDLE_SECONDS = 30;

  /** Bytes of request headers taken, at most. */
  public static final int MAX_HEADER_BYTES = 64 * 1024;

  /** Bytes of request body read before the route runs, unless told. */
  public static final int DEFAULT_MAX_BODY = 1024 * 1024;

  static final int STOP_WAIT_SECONDS = 2;
  private static final long CONNECTION_STACK_BYTES = 512 * 1024;
  private static final int BACKLOG = 1024;
  private static final Logger LOG = Logger.getLogger(LoopbackHttpServer.class.getName());

  /** Runs before routing; false when it answered the request itself (a missing token, say). */
  @FunctionalInterface
  public interface Guard {
    boolean admit(HttpExchange exchange) throws IOException;
  }

  /** Answers a method the route does not answer; the {@code Allow} header is set already. */
  @FunctionalInterface
  public interface Refusal {
    void refuse(HttpExchange exchange, List<String> allowed) throws IOException;
  }

  /** Answers a request whose handler threw before it began its answer. */
  @FunctionalInterface
  public interface Failure {
    void answer(HttpExchange exchange, RuntimeException failure) throws IOException;
  }

  private final String name;
  private final HttpServer server;
  private final ThreadPoolExecutor connections;
  private final Semaphore running;
  private final AtomicInteger waiting = new AtomicInteger();
  private final Map<String, Route> exact = new HashMap<>();
  private final List<Route> prefixes;
  private final Builder settings;
  private final InFlight inFlight = new InFlight();
  private volatile boolean closing;
  private boolean closed;

  private LoopbackHttpServer(Builder settings, HttpServer server) {
    this.name = settings.name;
    this.settings = settings;
    this.server = server;
    List<Route> byLength = new ArrayList<>();
    for (Route route : settings.routes) {
      if (route.isPrefix()) {
        byLength.add(route);
      } else if (exact.putIfAbsent(route.path(), route) != null) {
        throw new IllegalArgumentException(name + ": two routes for " + route.path());
      }
    }
    byLength.sort((a, b) -> b.path().length() - a.path().length()); // the longest prefix first
    this.prefixes = List.copyOf(byLength);
    this.running = new Semaphore(settings.threads);
    // A thread per connection being read (the JDK reads a request on its executor's thread), and
    // none kept: idle kept-alive connections wait in the JDK's selector, not on a thread.
    this.connections =
        new ThreadPoolExecutor(
            0,
            MAX_CONNECTIONS + 16,
            IDLE_SECONDS,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            daemons(name),
            (task, pool) ->
                LOG.warning(
                    name
                        + ": more than "
                        + pool.getMaximumPoolSize()
                        + " connections: one dropped"));
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * Turns Nagle's algorithm off for the JDK's HTTP servers, unless the property is set already. The
   * JDK's server writes a response's headers and body as two segments; with Nagle on, the body
   * waits for the client's delayed ACK of the headers, about 40 ms on Linux, on every request after
   * a connection's first. The JDK reads the property once, when its first server starts, so a
   * server created earlier in the same JVM by other code keeps the default.
   */
  public static void preferNoDelay() {
    setUnlessSet(NO_DELAY, "true");
    setUnlessSet("jdk.httpserver.maxConnections", String.valueOf(MAX_CONNECTIONS));
    setUnlessSet("sun.net.httpserver.maxReqTime", String.valueOf(REQUEST_SECONDS));
    setUnlessSet("sun.net.httpserver.idleInterval", String.valueOf(IDLE_SECONDS));
    setUnlessSet("sun.net.httpserver.maxReqHeaderSize", String.valueOf(MAX_HEADER_BYTES));
  }

  private static void setUnlessSet(String property, String value) {
    if (System.getProperty(property) == null) {
      System.setProperty(property, value);
    }
  }

  /** The bound address, with the actual port when port 0 was asked for. */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  /** {@code http://HOST:PORT}. */
  public URI url() {
    return URI.create("http://" + HostPort.format(address()));
  }

  /**
   * Answers new requests 503 while the requests in flight get the grace to finish, then stops
   * listening, cuts what is left and ends the threads, waiting at most {@value #STOP_WAIT_SECONDS}
   * s for them. Returns within the grace plus that.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    closing = true;
    try {
      inFlight.awaitNone(settings.grace);
      server.stop(0);
      connections.shutdownNow();
      if (!connections.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
        LOG.warning(
            name
                + ": requests still running "
                + STOP_WAIT_SECONDS
                + " s after close were abandoned");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      server.stop(0);
      connections.shutdownNow();
    }
  }

  /** Sends {@code body} (none when null) as the whole answer and closes the response body. */
  public static void send(HttpExchange exchange, int status, String contentType, String body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    if (body == null) {
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** On the connection's thread, the request's line and headers read: the body, then the route. */
  private void dispatch(HttpExchange exchange) {
    if (closing) {
      answerBusy(exchange);
      return;
    }
    try {
      // Read here, so a client sending its body a byte a second holds its connection, not a
      // request permit; a body above the limit is cut at limit + 1 for the route to refuse. A
      // body declared above the limit is left to the route, which refuses it from the header.
      if (!declaredAbove(exchange, settings.maxBody)) {
        byte[] body = exchange.getRequestBody().readNBytes(settings.maxBody + 1);
        exchange.setStreams(new ByteArrayInputStream(body), null);
      }
    } catch (IOException e) {
      exchange.close(); // the client went away or was too slow: nothing to answer
      LOG.log(Level.FINE, name + ": request body not read", e);
      return;
    }
    if (!admitted()) {
      answerBusy(exchange);
      return;
    }
    inFlight.enter();
    try {
      route(exchange);
    } catch (IOException e) {
      exchange
          .close(); // the client is gone or the answer could not be written: nothing left to tell
      // it
      LOG.log(Level.FINE, name + ": request not answered", e);
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, name + ": handler failed", e);
      try {
        if (exchange.getResponseCode() == -1) {
          settings.failure.answer(exchange, e);
        }
      } catch (IOException | RuntimeException again) {
        LOG.log(Level.FINE, name + ": failure not answered", again);
      } finally {
        exchange.close();
      }
    } finally {
      inFlight.exit();
      running.release();
    }
  }

  private static boolean declaredAbove(HttpExchange exchange, int limit) {
    String length = exchange.getRequestHeaders().getFirst("Content-Length");
    if (length == null) {
      return false;
    }
    try {
      return Long.parseLong(length.strip()) > limit;
    } catch (NumberFormatException e) {
      return false; // the JDK refused it already; nothing to read
    }
  }

  /** A request permit, at once or after waiting among the queue; false when the queue is full. */
  private boolean admitted() {
    if (running.tryAcquire()) {
      return true;
    }
    if (waiting.incrementAndGet() > settings.queue) {
      waiting.decrementAndGet();
      return false;
    }
    try {
      running.acquire();
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the server is closing
      return false;
    } finally {
      waiting.decrementAndGet();
    }
  }

  private void route(HttpExchange request) throws IOException {
    boolean head = request.getRequestMethod().equals("HEAD");
    HttpExchange exchange = head ? HeadAsGet.bodiless(request) : request;
    if (settings.guard != null && !settings.guard.admit(exchange)) {
      return;
    }
    Route route = find(path(exchange));
    if (route == null) {
      settings.notFound.handle(exchange);
      return;
    }
    HttpHandler handler = route.handler(exchange.getRequestMethod());
    if (handler == null) {
      List<String> allowed = route.methods();
      List<String> header = new ArrayList<>(allowed);
      if (header.contains("GET")) {
        header.add(header.indexOf("GET") + 1, "HEAD");
      }
      exchange.getResponseHeaders().set("Allow", String.join(", ", header));
      settings.refusal.refuse(exchange, allowed);
      return;
    }
    handler.handle(head ? HeadAsGet.asGet(request) : request);
  }

  private String path(HttpExchange exchange) {
    String path = exchange.getRequestURI().getRawPath();
    if (path == null || path.isEmpty()) {
      return "/";
    }
    if (settings.trailingSlashIgnored) {
      int end = path.length();
      while (end > 1 && path.charAt(end - 1) == '/') {
        end--;
      }
      path = path.substring(0, end);
    }
    return path;
  }

  private Route find(String path) {
    Route route = exact.get(path);
    if (route != null) {
      return route;
    }
    for (Route prefix : prefixes) {
      if (prefix.matches(path)) {
        return prefix;
      }
    }
    return null;
  }

  private void answerBusy(HttpExchange exchange) {
    try (exchange) {
      exchange.getResponseHeaders().set("Retry-After", "1");
      send(
          exchange,
          503,
          "text/plain; charset=utf-8",
          closing
              ? name + " is stopping\n"
              : name
                  + " is busy: all "
                  + settings.threads
                  + " request threads and "
                  + settings.queue
                  + " queued requests are taken; try again\n");
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.FINE, name + ": 503 not answered", e);
    }
  }

  private static ThreadFactory daemons(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      Thread thread =
          new Thread(null, task, prefix + "-" + count.incrementAndGet(), CONNECTION_STACK_BYTES);
      thread.setDaemon(true);
      return thread;
    };
  }

  /** Requests being handled, and a wait until there are none. */
  private static final class InFlight {
    private int count;

    synchronized void enter() {
      count++;
    }

    synchronized void exit() {
      if (--count == 0) {
        notifyAll();
      }
    }

    /** Waits until no request is in flight, at most {@code limit}. */
    synchronized void awaitNone(Duration limit) throws InterruptedException {
      long deadline = System.nanoTime() + limit.toNanos();
      for (long left = limit.toNanos();
          count > 0 && left > 0;
          left = deadline - System.nanoTime()) {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }
  }

  /** What a {@link LoopbackHttpServer} will be; {@link #start()} binds it. */
  public static final class Builder {
    private final String name;
    private InetSocketAddress address = HostPort.loopbackAnyPort();
    private int threads = 4;
    private int queue = 64;
    private int maxBody = DEFAULT_MAX_BODY;
    private Duration grace = Duration.ZERO;
    private final List<Route> routes = new ArrayList<>();
    private Guard guard;
    private boolean trailingSlashIgnored;
    private HttpHandler notFound =
        exchange -> {
          try (exchange) {
            send(exchange, 404, "text/plain; charset=utf-8", "404 page not found\n");
          }
        };
    private Refusal refusal =
        (exchange, allowed) -> {
          try (exchange) {
            send(exchange, 405, "text/plain; charset=utf-8", "Method Not Allowed\n");
          }
        };
    private Failure failure =
        (exchange, e) ->
            send(exchange, 500, "text/plain; charset=utf-8", "Internal Server Error\n");

    private Builder(String name) {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException(
            "a server needs a name (its threads are named after it)");
      }
      this.name = name;
    }

    /** Where to listen; 127.0.0.1 and a free port when not given. Port 0 picks a free one. */
    public Builder address(InetSocketAddress address) {
      this.address = Objects.requireNonNull(address, "address");
      return this;
    }

    /** Request threads (4 unless told); at least 1. */
    public Builder threads(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException(
            name + ": threads is " + threads + " (expected at least 1)");
      }
      this.threads = threads;
      return this;
    }

    /** Requests that may wait for a thread (64 unless told); beyond them, 503. */
    public Builder queue(int queue) {
      if (queue < 1) {
        throw new IllegalArgumentException(name + ": queue is " + queue + " (expected at least 1)");
      }
      this.queue = queue;
      return this;
    }

    /**
     * Bytes of a request's body read before its route runs ({@value #DEFAULT_MAX_BODY} unless
     * told): a longer body reaches the route cut at {@code maxBody + 1} bytes, for it to refuse.
     */
    public Builder maxBody(int maxBody) {
      if (maxBody < 0 || maxBody == Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            name + ": maxBody is " + maxBody + " (expected 0 to " + (Integer.MAX_VALUE - 1) + ")");
      }
      this.maxBody = maxBody;
      return this;
    }

    /** How long {@link #close()} lets requests in flight finish (none unless told). */
    public Builder grace(Duration grace) {
      if (grace.isNegative()) {
        throw new IllegalArgumentException(
            name + ": grace is " + grace + " (expected zero or more)");
      }
      this.grace = grace;
      return this;
    }

    public Builder route(Route route) {
      routes.add(Objects.requireNonNull(route, "route"));
      return this;
    }

    /** Runs before routing, for every request (the 404s and 405s too). */
    public Builder guard(Guard guard) {
      this.guard = Objects.requireNonNull(guard, "guard");
      return this;
    }

    /** {@code /proxies/} is routed as {@code /proxies}. */
    public Builder ignoreTrailingSlash() {
      this.trailingSlashIgnored = true;
      return this;
    }

    /** Answers a path without a route; {@code 404 page not found} (text) unless told. */
    public Builder notFound(HttpHandler notFound) {
      this.notFound = Objects.requireNonNull(notFound, "notFound");
      return this;
    }

    /** Answers a method the route does not take; {@code Method Not Allowed} (text) unless told. */
    public Builder refusal(Refusal refusal) {
      this.refusal = Objects.requireNonNull(refusal, "refusal");
      return this;
    }

    /** Answers a handler's exception; 500 {@code Internal Server Error} (text) unless told. */
    public Builder failure(Failure failure) {
      this.failure = Objects.requireNonNull(failure, "failure");
      return this;
    }

    private Builder copy() {
      Builder copy = new Builder(name);
      copy.address = address;
      copy.threads = threads;
      copy.queue = queue;
      copy.maxBody = maxBody;
      copy.grace = grace;
      copy.routes.addAll(routes);
      copy.guard = guard;
      copy.trailingSlashIgnored = trailingSlashIgnored;
      copy.notFound = notFound;
      copy.refusal = refusal;
      copy.failure = failure;
      return copy;
    }

    /** Binds and starts serving; IOException when the address cannot be bound. */
    public LoopbackHttpServer start() throws IOException {
      preferNoDelay();
      HttpServer server = HttpServer.create(address, BACKLOG);
      LoopbackHttpServer started;
      try {
        started =
            new LoopbackHttpServer(
                copy(), server); // a builder used again does not change this server
      } catch (RuntimeException e) {
        server.stop(0);
        throw e;
      }
      server.createContext("/", started::dispatch);
      server.setExecutor(started.connections);
      server.start();
      return started;
    }

    /**
     * {@link #start()}, with a failure to bind as one unchecked line: {@code WHAT cannot listen on
     * HOST:PORT: REASON}.
     */
    public LoopbackHttpServer startOrThrow(String what) {
      try {
        return start();
      } catch (IOException e) {
        throw new UncheckedIOException(
            what + " cannot listen on " + HostPort.format(address) + ": " + e.getMessage(), e);
      }
    }
  }
}
