package dev.firedrill.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A trivial HTTP/1.1 server on 127.0.0.1 for load tests: a thread per connection, keep-alive, every
 * request answered {@code 200 ok} in one write with TCP_NODELAY (the JDK's server pays about 40 ms
 * per keep-alive response to Nagle's algorithm unless a JVM-wide property is set before its first
 * use; see {@code LoopbackHttpServer.preferNoDelay}). It counts arrivals (first and last arrival
 * time, distinct trace ids) and keeps the last request's trace headers. It can stall: from the Nth
 * arrival on, for a while, every request that arrives is held until the stall ends.
 */
public final class LoadTarget implements AutoCloseable {

  private static final byte[] OK =
      "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nok\n"
          .getBytes(StandardCharsets.US_ASCII);

  private final ServerSocket socket;
  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "load-target");
            thread.setDaemon(true);
            return thread;
          });
  private final CountDownLatch closed = new CountDownLatch(1);
  private final AtomicLong arrivals = new AtomicLong();
  private final Map<String, Boolean> traceIds = new ConcurrentHashMap<>();
  private volatile long firstArrival;
  private volatile long lastArrival;
  private volatile String lastBaggage;
  private volatile String lastTraceparent;
  private volatile long stallAt = Long.MAX_VALUE;
  private volatile long stallNanos;
  private volatile long stallEnd = System.nanoTime(); // in the past: no stall

  private LoadTarget() throws IOException {
    socket = new ServerSocket(0, 1024, InetAddress.getLoopbackAddress());
    threads.execute(this::accept);
  }

  /**
   * Runs a target in a JVM of its own (for benchmarks that measure the generator's CPU alone):
   * prints {@code port N}, serves until its stdin closes.
   */
  public static void main(String[] args) throws IOException {
    try (LoadTarget target = start()) {
      System.out.println("port " + target.socket.getLocalPort());
      System.out.flush();
      System.in.transferTo(OutputStream.nullOutputStream());
    }
  }

  public static LoadTarget start() {
    try {
      return new LoadTarget();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start a load target on 127.0.0.1", e);
    }
  }

  /**
   * From the {@code n}th arrival after this call (1-based) on, hold every arriving request until
   * {@code stall} has passed.
   */
  public LoadTarget stallAtArrival(long n, Duration stall) {
    this.stallNanos = stall.toNanos();
    this.stallAt = arrivals.get() + n;
    return this;
  }

  public URI url(String path) {
    return URI.create("http://127.0.0.1:" + socket.getLocalPort() + path);
  }

  public long arrivals() {
    return arrivals.get();
  }

  /** Arrivals per second between the first and the last arrival. */
  public double arrivalRate() {
    long n = arrivals.get();
    return n < 2 ? 0 : (n - 1) * 1e9 / (lastArrival - firstArrival);
  }

  public int distinctTraceIds() {
    return traceIds.size();
  }

  public String lastBaggage() {
    return lastBaggage;
  }

  public String lastTraceparent() {
    return lastTraceparent;
  }

  @Override
  public void close() {
    closed.countDown();
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
    threads.shutdownNow();
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket connection = socket.accept();
        connection.setTcpNoDelay(true);
        threads.execute(() -> serve(connection));
      } catch (IOException | java.util.concurrent.RejectedExecutionException e) {
        return;
      }
    }
  }

  private void serve(Socket connection) {
    try (connection;
        InputStream in = new BufferedInputStream(connection.getInputStream());
        OutputStream out = connection.getOutputStream()) {
      while (true) {
        String requestLine = line(in);
        if (requestLine == null || requestLine.isEmpty()) {
          return;
        }
        long length = 0;
        String traceparent = null;
        String baggage = null;
        for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
          int colon = header.indexOf(':');
          if (colon < 0) {
            continue;
          }
          String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
          String value = header.substring(colon + 1).trim();
          switch (name) {
            case "content-length" -> length = Long.parseLong(value);
            case "traceparent" -> traceparent = value;
            case "baggage" -> baggage = value;
            default -> {}
          }
        }
        in.skipNBytes(length);
        arrived(traceparent, baggage);
        out.write(OK);
        out.flush();
      }
    } catch (IOException e) {
      // the client went away
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void arrived(String traceparent, String baggage) throws InterruptedException {
    long now = System.nanoTime();
    long n = arrivals.incrementAndGet();
    if (n == 1) {
      firstArrival = now;
    }
    lastArrival = now;
    lastTraceparent = traceparent;
    lastBaggage = baggage;
    if (traceparent != null && traceparent.length() > 35) {
      traceIds.put(traceparent.substring(3, 35), Boolean.TRUE);
    }
    if (n == stallAt) {
      stallEnd = now + stallNanos;
    }
    long hold = stallEnd - now;
    if (hold > 0) {
      closed.await(hold, TimeUnit.NANOSECONDS);
    }
  }

  /** One CRLF-terminated line, without the CRLF; null at the end of the stream. */
  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
    int c;
    while ((c = in.read()) != -1) {
      if (c == '\n') {
        String text = bytes.toString(StandardCharsets.ISO_8859_1);
        return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
      }
      bytes.write(c);
      if (bytes.size() > 16_384) {
        throw new IOException("header line too long");
      }
    }
    return bytes.size() == 0 ? null : bytes.toString(StandardCharsets.ISO_8859_1);
  }
}
