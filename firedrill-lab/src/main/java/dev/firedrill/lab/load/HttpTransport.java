package dev.firedrill.lab.load;

import dev.firedrill.lab.trace.Baggage;
import dev.firedrill.lab.trace.TraceParent;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The plan's requests over HTTP/1.1 keep-alive connections of our own (redirects are not followed).
 *
 * <p>Why not the JDK's {@code HttpClient}: at 5000 requests/s on loopback it spent the generator's
 * CPU on its selector and async machinery and opened hundreds of connections, and reached a quarter
 * of the rate. Here a pool of workers, at most {@link LoadPlan#maxInFlight()} and started only when
 * no idle one is free, each owns one blocking connection: {@link #send} queues the request at the
 * moment the scheduler sends it, an idle worker takes it, writes it in one write and reads the
 * response to its end. So connections number the requests actually in flight at once, and each
 * request costs a write, a read or two and one thread hand-off.
 *
 * <p>Workers idle for {@value #IDLE_SECONDS} s end (their connection with them), and {@link #close}
 * ends them all, so a transport nobody closes still does not keep threads or sockets for long.
 */
public final class HttpTransport implements Transport, AutoCloseable {

  private static final int IDLE_SECONDS = 10;
  private static final long STACK_BYTES = 256 * 1024;

  private final LoadPlan plan;
  private final byte[] head;
  private final LinkedBlockingQueue<Exchange> queue = new LinkedBlockingQueue<>();

  /** Idle workers not yet promised to a queued request. */
  private final AtomicInteger idle = new AtomicInteger();

  /**
   * Queued requests that found no idle worker and no room for a new one: the next worker free takes
   * them.
   */
  private final AtomicInteger waiting = new AtomicInteger();

  private final AtomicInteger started = new AtomicInteger();
  private final Set<Worker> workers = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  public HttpTransport(LoadPlan plan) {
    this.plan = plan;
    this.head = requestHead(plan).getBytes(StandardCharsets.ISO_8859_1);
  }

  /** Everything before the traceparent: the request line, Host, an empty body's length, baggage. */
  static String requestHead(LoadPlan plan) {
    String path =
        plan.url().getRawPath() == null || plan.url().getRawPath().isEmpty()
            ? "/"
            : plan.url().getRawPath();
    String query = plan.url().getRawQuery() == null ? "" : "?" + plan.url().getRawQuery();
    String host =
        plan.url().getHost() + (plan.url().getPort() >= 0 ? ":" + plan.url().getPort() : "");
    StringBuilder head =
        new StringBuilder(256)
            .append(plan.method())
            .append(' ')
            .append(path)
            .append(query)
            .append(" HTTP/1.1\r\n")
            .append("Host: ")
            .append(host)
            .append("\r\n")
            .append("User-Agent: firedrill\r\n");
    if (plan.method()
        .startsWith("P")) { // POST, PUT, PATCH: some servers want a length, even of nothing
      head.append("Content-Length: 0\r\n");
    }
    plan.experimentId()
        .ifPresent(
            id ->
                head.append(Baggage.HEADER)
                    .append(": ")
                    .append(Baggage.experiment(id))
                    .append("\r\n"));
    return head.append(TraceParent.HEADER).append(": ").toString();
  }

  @Override
  public CompletableFuture<Outcome> send(TraceParent traceparent) {
    Exchange exchange = new Exchange(traceparent, new CompletableFuture<>());
    if (closed) {
      exchange.result().complete(Outcome.REFUSED);
      return exchange.result();
    }
    queue.add(exchange);
    if (!claimIdle() && !startWorker()) {
      waiting.incrementAndGet();
    }
    if (closed) {
      refuseQueued(); // close() may have emptied the queue just before the add
    }
    return exchange.result();
  }

  /**
   * Ends every worker and connection; requests queued or in flight end refused, later ones at once.
   */
  @Override
  public void close() {
    closed = true;
    for (Worker worker : workers) {
      worker.connection.close();
      worker.thread.interrupt();
    }
    refuseQueued();
  }

  private boolean claimIdle() {
    for (int n = idle.get(); n > 0; n = idle.get()) {
      if (idle.compareAndSet(n, n - 1)) {
        return true;
      }
    }
    return false;
  }

  private boolean startWorker() {
    for (int n = started.get(); n < plan.maxInFlight(); n = started.get()) {
      if (started.compareAndSet(n, n + 1)) {
        Worker worker = new Worker(new HttpConnection(plan.url()), n + 1);
        workers.add(worker);
        worker.thread.start();
        return true;
      }
    }
    return false;
  }

  private void refuseQueued() {
    for (Exchange exchange = queue.poll(); exchange != null; exchange = queue.poll()) {
      exchange.result().complete(Outcome.REFUSED);
    }
  }

  private record Exchange(TraceParent traceparent, CompletableFuture<Outcome> result) {}

  /** One thread, one connection; promised to a request from the moment it is idle. */
  private final class Worker implements Runnable {
    private final HttpConnection connection;
    private final Thread thread;
    private byte[] request = new byte[head.length + 64];
    private int length;

    Worker(HttpConnection connection, int number) {
      this.connection = connection;
      this.thread = new Thread(null, this, "firedrill-load-" + number, STACK_BYTES);
      this.thread.setDaemon(true);
    }

    @Override
    public void run() {
      // A new worker is promised to the request that found none idle, so it does not count itself
      // idle yet.
      try {
        while (!closed) {
          Exchange exchange = queue.poll(IDLE_SECONDS, TimeUnit.SECONDS);
          if (exchange == null) {
            if (claimIdle()) {
              return; // idle, and no request counts on this worker: retire
            }
            continue; // a request was promised this worker and is on its way
          }
          Outcome outcome = exchange(exchange.traceparent());
          promise(); // before completing: the scheduler's next send, triggered by this one, finds
          // us idle
          exchange.result().complete(outcome);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // closing: the thread ends here
      } finally {
        connection.close();
        workers.remove(this);
        started.decrementAndGet();
      }
    }

    private Outcome exchange(TraceParent traceparent) {
      if (closed) {
        return Outcome.REFUSED;
      }
      try {
        return connection.exchange(
            request(traceparent), length, "HEAD".equals(plan.method()), plan.timeout().toNanos());
      } catch (RuntimeException e) {
        return Outcome
            .REFUSED; // whatever went wrong, the worker stays, and the request gets its outcome
      }
    }

    /** Counts this worker idle, or hands it a request that found none. */
    private void promise() {
      for (int n = waiting.get(); n > 0; n = waiting.get()) {
        if (waiting.compareAndSet(n, n - 1)) {
          return;
        }
      }
      idle.incrementAndGet();
    }

    /** The request with this traceparent, in a buffer of the worker's own. */
    private byte[] request(TraceParent traceparent) {
      byte[] tail = (traceparent.header() + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
      length = head.length + tail.length;
      if (request.length < length) {
        request = new byte[length];
      }
      System.arraycopy(head, 0, request, 0, head.length);
      System.arraycopy(tail, 0, request, head.length, tail.length);
      return request;
    }
  }
}
