package dev.firedrill.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * A fake service's {@code /metrics} on 127.0.0.1, in the text format 0.0.4. Counters advance with
 * elapsed real time at the rates the test sets; nothing runs in the background: each scrape (and
 * each setter) integrates the current rates over the time since the last one. Thread-safe.
 *
 * <p>Starts at 10 requests/s, no errors, 50 ms latency.
 */
public final class SyntheticService implements AutoCloseable {

  public static final String REQUESTS = "demo_requests_total";
  public static final String DURATION = "demo_request_duration_seconds";

  /** Windows of 5s hold about five 1s scrapes; rate needs two. */
  public static final String ERROR_RATIO =
      "sum(rate(demo_requests_total{code=\"500\"}[5s])) / sum(rate(demo_requests_total[5s]))";

  public static final String REQUEST_RATE = "sum(rate(demo_requests_total[5s]))";
  public static final String P99_LATENCY =
      "histogram_quantile(0.99, sum by (le) (rate(demo_request_duration_seconds_bucket[5s])))";

  static final double[] BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

  private final HttpServer server;
  private final LongSupplier nanoTime;
  private final Set<String> hidden = new HashSet<>();
  private long last;
  private double requestRate = 10;
  private double errorRatio = 0;
  private double latency = 0.05;
  private double ok;
  private double errors;
  private final double[] buckets = new double[BUCKETS.length];
  private double sum;
  private boolean failing;
  private long scrapes;

  private SyntheticService(LongSupplier nanoTime, int port) throws IOException {
    this.nanoTime = nanoTime;
    this.last = nanoTime.getAsLong();
    this.server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    server.createContext("/metrics", this::serve);
    server.start();
  }

  public static SyntheticService start() {
    return start(System::nanoTime);
  }

  /** On a given port of 127.0.0.1, for a service run as its own process. */
  public static SyntheticService start(int port) {
    try {
      return new SyntheticService(System::nanoTime, port);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the synthetic service on 127.0.0.1:" + port, e);
    }
  }

  /** With a custom time source, for testing the exporter itself. */
  static SyntheticService start(LongSupplier nanoTime) {
    try {
      return new SyntheticService(nanoTime, 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the test exporter on 127.0.0.1", e);
    }
  }

  /** {@code 127.0.0.1:PORT}, as a scrape target. */
  public String address() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  public synchronized void setRequestRate(double perSecond) {
    require(
        perSecond >= 0 && Double.isFinite(perSecond),
        "request rate",
        perSecond,
        "a finite number >= 0");
    advance();
    requestRate = perSecond;
  }

  public synchronized void setErrorRatio(double ratio) {
    require(ratio >= 0 && ratio <= 1, "error ratio", ratio, "a number from 0 to 1");
    advance();
    errorRatio = ratio;
  }

  public synchronized void setLatency(double seconds) {
    require(
        seconds >= 0 && Double.isFinite(seconds),
        "latency",
        seconds,
        "a finite number of seconds >= 0");
    advance();
    latency = seconds;
  }

  /** Leaves a metric family ({@link #REQUESTS} or {@link #DURATION}) out of the exposition. */
  public synchronized void hide(String metricName) {
    hidden.add(known(metricName));
  }

  public synchronized void show(String metricName) {
    hidden.remove(known(metricName));
  }

  /** While true, {@code /metrics} answers HTTP 500, so Prometheus sees the target down. */
  public synchronized void setScrapeFailing(boolean failing) {
    this.failing = failing;
  }

  /** How many times {@code /metrics} was served. */
  public synchronized long scrapes() {
    return scrapes;
  }

  /** The exposition as a scrape would see it now. */
  public synchronized String exposition() {
    advance();
    StringBuilder out = new StringBuilder();
    if (!hidden.contains(REQUESTS)) {
      out.append("# HELP demo_requests_total Requests served, by status code.\n")
          .append("# TYPE demo_requests_total counter\n")
          .append("demo_requests_total{code=\"200\"} ")
          .append(number(ok))
          .append('\n')
          .append("demo_requests_total{code=\"500\"} ")
          .append(number(errors))
          .append('\n');
    }
    if (!hidden.contains(DURATION)) {
      out.append("# HELP demo_request_duration_seconds Request latency.\n")
          .append("# TYPE demo_request_duration_seconds histogram\n");
      for (int i = 0; i < BUCKETS.length; i++) {
        out.append("demo_request_duration_seconds_bucket{le=\"")
            .append(number(BUCKETS[i]))
            .append("\"} ")
            .append(number(buckets[i]))
            .append('\n');
      }
      double count = ok + errors;
      out.append("demo_request_duration_seconds_bucket{le=\"+Inf\"} ")
          .append(number(count))
          .append('\n')
          .append("demo_request_duration_seconds_sum ")
          .append(number(sum))
          .append('\n')
          .append("demo_request_duration_seconds_count ")
          .append(number(count))
          .append('\n');
    }
    return out.toString();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void serve(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body;
      int status;
      synchronized (this) {
        scrapes++;
        status = failing ? 500 : 200;
        body =
            (failing ? "scrapes are failing (set by the test)\n" : exposition())
                .getBytes(StandardCharsets.UTF_8);
      }
      exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
      exchange.sendResponseHeaders(status, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private void advance() {
    long now = nanoTime.getAsLong();
    double seconds = (now - last) / 1e9;
    last = now;
    if (seconds <= 0) {
      return;
    }
    double requests = requestRate * seconds;
    errors += requests * errorRatio;
    ok += requests * (1 - errorRatio);
    sum += requests * latency;
    for (int i = 0; i < BUCKETS.length; i++) {
      if (latency <= BUCKETS[i]) {
        buckets[i] += requests;
      }
    }
  }

  private static String known(String metricName) {
    if (!REQUESTS.equals(metricName) && !DURATION.equals(metricName)) {
      throw new IllegalArgumentException(
          "unknown metric \"" + metricName + "\" (expected " + REQUESTS + " or " + DURATION + ")");
    }
    return metricName;
  }

  private static void require(boolean ok, String what, double value, String expected) {
    if (!ok) {
      throw new IllegalArgumentException(
          what + " " + value + " is not usable (expected " + expected + ")");
    }
  }

  private static String number(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "+Inf" : "-Inf";
    }
    return java.math.BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }
}
