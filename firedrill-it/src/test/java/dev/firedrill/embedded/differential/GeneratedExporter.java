package dev.firedrill.embedded.differential;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.LongSupplier;

/**
 * A {@code /metrics} on 127.0.0.1 whose every sample carries an explicit timestamp and changes only
 * once per {@link #STEP_MS}, twice the scrape interval: two Prometheus servers scraping it at
 * different moments ingest the very same samples. The values are a pure function of the step, so
 * the exposition needs no background thread: counters (with and without resets), gauges (negative,
 * fractional and NaN), a classic histogram, the lab services' series the rule files read, a series
 * that disappears and one that appears late. Checkout is healthy until {@link #startFault}; from
 * then on it answers a share of its requests with a 500, slowly, and its orders stay pending, so
 * the lab's checkout alerts fire at moments both servers can be compared on.
 */
final class GeneratedExporter implements AutoCloseable {

  static final long STEP_MS = 2_000;
  private static final double[] BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

  private final HttpServer server;
  private final LongSupplier wallMillis;
  private volatile long firstStep = Long.MAX_VALUE;
  private volatile long faultStep = Long.MAX_VALUE;

  private GeneratedExporter(LongSupplier wallMillis) throws IOException {
    this.wallMillis = wallMillis;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/metrics", this::serve);
    server.start();
  }

  static GeneratedExporter start(LongSupplier wallMillis) {
    try {
      return new GeneratedExporter(wallMillis);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the generated exporter on 127.0.0.1", e);
    }
  }

  /** {@code 127.0.0.1:port}, as a scrape config's target. */
  String target() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  /**
   * Serves samples from the next step on; until then the exposition is empty, so that servers which
   * began scraping at different moments hold the same samples.
   */
  long startData() {
    long step = wallMillis.getAsLong() / STEP_MS + 1;
    firstStep = step;
    return step * STEP_MS;
  }

  /** Starts the fault at the step after the current one, so no exposed sample changes its value. */
  long startFault() {
    long step = wallMillis.getAsLong() / STEP_MS + 1;
    faultStep = step;
    return step * STEP_MS;
  }

  private void serve(HttpExchange exchange) throws IOException {
    long step = wallMillis.getAsLong() / STEP_MS;
    // Quoted UTF-8 names only for a scraper that asks for them, as client libraries negotiate: the
    // real and embedded Prometheus 3 do, Prometheus 2.42 (which would refuse the lines) does not.
    String accept = exchange.getRequestHeaders().getFirst("Accept");
    boolean utf8 = accept != null && accept.contains("escaping=allow-utf-8");
    byte[] body =
        (step >= firstStep ? exposition(step, utf8) : "").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
    exchange.sendResponseHeaders(200, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  String exposition(long step, boolean utf8) {
    long k = step - firstStep;
    long faultSteps = Math.max(0, step - faultStep + 1);
    long ts = step * STEP_MS;
    StringBuilder out = new StringBuilder();
    out.append("# TYPE http_server_requests_total counter\n");
    for (String service : new String[] {"checkout", "payments"}) {
      String route = service.equals("checkout") ? "/checkout" : "/pay";
      long ok = 20 * k + (k * k) % 7 + (service.equals("checkout") ? 0 : 3);
      long errors = service.equals("checkout") ? 9 * faultSteps : k / 4;
      sample(
          out,
          "http_server_requests_total",
          "code=\"200\",route=\"" + route + "\",service=\"" + service + "\"",
          ok,
          ts);
      sample(
          out,
          "http_server_requests_total",
          "code=\"500\",route=\"" + route + "\",service=\"" + service + "\"",
          errors,
          ts);
    }
    out.append("# TYPE http_server_request_duration_seconds histogram\n");
    for (String service : new String[] {"checkout", "payments"}) {
      long total = 20 * k + (service.equals("checkout") ? 5 * faultSteps : 0);
      double cumulative = 0;
      for (int b = 0; b < BUCKETS.length; b++) {
        // Later buckets hold fewer requests; a fault moves checkout's requests into the slow
        // buckets.
        long inBucket =
            b < 6
                ? (long) (total * (6 - b) / 21.0)
                : (service.equals("checkout") ? faultSteps * (b - 5) : 0);
        cumulative += inBucket;
        sample(
            out,
            "http_server_request_duration_seconds_bucket",
            "le=\"" + BUCKETS[b] + "\",service=\"" + service + "\"",
            cumulative,
            ts);
      }
      // Only payments has requests slower than the last bucket: checkout's p99 stays low until the
      // fault.
      double count = cumulative + (service.equals("payments") ? k / 3 : 0);
      sample(
          out,
          "http_server_request_duration_seconds_bucket",
          "le=\"+Inf\",service=\"" + service + "\"",
          count,
          ts);
      sample(
          out,
          "http_server_request_duration_seconds_sum",
          "service=\"" + service + "\"",
          0.037 * total + 0.9 * faultSteps,
          ts);
      sample(
          out,
          "http_server_request_duration_seconds_count",
          "service=\"" + service + "\"",
          count,
          ts);
    }
    out.append("# TYPE orders_total counter\n");
    long pending = 8 * faultSteps;
    long completed = 10 * k;
    sample(out, "orders_completed_total", "", completed, ts);
    sample(out, "orders_total", "result=\"completed\"", completed, ts);
    sample(out, "orders_total", "result=\"pending\"", pending, ts);
    out.append("# TYPE diff_requests_total counter\n");
    sample(out, "diff_requests_total", "shard=\"a\"", (k % 17) * 3 + 1, ts);
    sample(out, "diff_requests_total", "shard=\"b\"", (k % 23) * 11.5, ts);
    sample(out, "diff_requests_total", "shard=\"c\"", k * 1000 + 0.25, ts);
    out.append("# TYPE diff_temperature gauge\n");
    for (int sensor = 1; sensor <= 4; sensor++) {
      sample(
          out,
          "diff_temperature",
          "sensor=\"" + sensor + "\"",
          20 + 7.5 * Math.sin(k / 3.0 + sensor) - sensor,
          ts);
    }
    sample(out, "diff_balance", "account=\"x\"", -40 + (k % 9) * 9.75, ts);
    sample(out, "diff_balance", "account=\"y\"", k % 5 == 0 ? Double.NaN : 1.0 / (k % 5), ts);
    if (k < 15) {
      sample(out, "diff_vanishing", "id=\"early\"", k * 2.5, ts);
    }
    if (k >= 10) {
      sample(out, "diff_late", "id=\"late\"", Math.sqrt(k), ts);
    }
    // Bucket and quantile labels written as integers, an exponent and a trailing zero: Prometheus 3
    // stores them as floats (le="1.0"), Prometheus 2 as written.
    out.append("# TYPE diff_latency_seconds histogram\n");
    String[] les = {"1", "2.50", "1e1", "+Inf"};
    for (int b = 0; b < les.length; b++) {
      sample(out, "diff_latency_seconds_bucket", "le=\"" + les[b] + "\"", 3 * k + b * k, ts);
    }
    sample(out, "diff_latency_seconds_sum", "", 2.5 * k, ts);
    sample(out, "diff_latency_seconds_count", "", 6 * k, ts);
    out.append("# TYPE diff_size summary\n");
    sample(out, "diff_size", "quantile=\"0.5\"", 10 + k % 3, ts);
    sample(out, "diff_size", "quantile=\"1\"", 20 + k % 4, ts);
    sample(out, "diff_size_sum", "", 15.0 * k, ts);
    sample(out, "diff_size_count", "", k, ts);
    // A label value across a newline: Prometheus 3's regex . matches it, Prometheus 2's does not.
    sample(out, "diff_text", "msg=\"line one\\nline two\"", 1, ts);
    if (utf8) {
      out.append("# TYPE \"diff.utf8.requests_total\" counter\n");
      for (String service : new String[] {"api", "web"}) {
        out.append("{\"diff.utf8.requests_total\",\"service.name\"=\"")
            .append(service)
            .append("\",code=\"200\"} ")
            .append(format(5 * k + (service.equals("api") ? k % 3 : 1)))
            .append(' ')
            .append(ts)
            .append('\n');
      }
      out.append("plain_utf8_labels{\"host.name\"=\"h1\"} ")
          .append(format(k % 11))
          .append(' ')
          .append(ts)
          .append('\n');
    }
    return out.toString();
  }

  private static void sample(StringBuilder out, String name, String labels, double value, long ts) {
    out.append(name);
    if (!labels.isEmpty()) {
      out.append('{').append(labels).append('}');
    }
    out.append(' ').append(format(value)).append(' ').append(ts).append('\n');
  }

  private static String format(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? Long.toString((long) value)
        : Double.toString(value);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
