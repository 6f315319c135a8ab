package dev.firedrill.net;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
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
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
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
 *   <li><b>threads</b>: a fixed pool of named daemon threads ({@code NAME-1}, ...) and a bounded
 *       queue. <b>When both are full, the request is answered 503</b> (with {@code Retry-After: 1})
 *       by one extra thread, {@code NAME-busy}, which never runs a route: a burst costs clients a
 *       retry, never the accepting thread, and memory stays bounded by the open connections.
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
  static final int STOP_WAIT_SECONDS = 2;
  private static final int BACKLOG = 1024;
  private static final Logger LOG = Logger.getLogger(LoopbackHttpServer.class.getName());

  /** Set on the busy thread: the request it runs is answered 503. */
  private static final ThreadLocal<Boolean> BUSY = new ThreadLocal<>();

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
  private final ThreadPoolExecutor threads;
  private final ThreadPoolExecutor busy;
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
    this.busy =
        new ThreadPoolExecutor(
            1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), daemons(name + "-busy", false));
    this.threads =
        new ThreadPoolExecutor(
            settings.threads,
            settings.threads,
            0,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(settings.queue),
            daemons(name, true),
            (task, pool) -> {
              if (!busy.isShutdown()) {
                busy.execute(
                    () -> {
                      BUSY.set(Boolean.TRUE);
                      try {
                        task.run();
                      } finally {
                        BUSY.remove();
                      }
                    });
              }
            });
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
    if (System.getProperty(NO_DELAY) == null) {
      System.setProperty(NO_DELAY, "true");
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
      threads.shutdownNow();
      busy.shutdownNow();
      if (!threads.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
        LOG.warning(
            name
                + ": requests still running "
                + STOP_WAIT_SECONDS
                + " s after close were abandoned");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      server.stop(0);
      threads.shutdownNow();
      busy.shutdownNow();
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

  private void dispatch(HttpExchange exchange) {
    if (BUSY.get() != null || closing) {
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

  private static ThreadFactory daemons(String prefix, boolean numbered) {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, numbered ? prefix + "-" + count.incrementAndGet() : prefix);
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
      server.setExecutor(started.threads);
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
