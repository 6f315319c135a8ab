package dev.firedrill.dashboards;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * A {@code /metrics} on 127.0.0.1 with the series the lab's recording rules read, under the lab
 * services' names and labels (checkout and payments at 10 requests/s, orders at 5/s), plus
 * firedrill's {@code chaos_experiment_active} gauge as the test sets it. Counters grow with elapsed
 * time at fixed rates, so every scrape is consistent without a background thread.
 */
final class LabSeriesExporter implements AutoCloseable {

  static final String EXPERIMENT = "payments-latency";
  static final String TARGET = "payments";
  static final String FAULT = "http-latency";

  private static final double REQUESTS_PER_SECOND = 10;
  private static final double ORDERS_PER_SECOND = 5;
  private static final double[] BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

  private final HttpServer server;
  private final Clock clock;
  private final long started;
  private final double checkoutErrorRatio;
  private OptionalInt chaosActive = OptionalInt.empty();

  private LabSeriesExporter(double checkoutErrorRatio, Clock clock) throws IOException {
    this.checkoutErrorRatio = checkoutErrorRatio;
    this.clock = clock;
    this.started = clock.nanoTime();
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/metrics", this::serve);
    server.start();
  }

  /** Checkout answers {@code checkoutErrorRatio} of its requests with a 500; payments none. */
  static LabSeriesExporter start(double checkoutErrorRatio) {
    try {
      return new LabSeriesExporter(checkoutErrorRatio, Clock.system());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the lab series exporter on 127.0.0.1", e);
    }
  }

  String address() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  /** Exposes {@code chaos_experiment_active} with this value from the next scrape on. */
  synchronized void setChaosActive(int value) {
    chaosActive = OptionalInt.of(value);
  }

  synchronized String exposition() {
    double seconds = (clock.nanoTime() - started) / 1e9;
    StringBuilder out = new StringBuilder();
    out.append("# TYPE http_server_requests_total counter\n");
    requests(out, "checkout", seconds, checkoutErrorRatio);
    requests(out, "payments", seconds, 0);
    out.append("# TYPE http_server_request_duration_seconds histogram\n");
    histogram(out, "checkout", seconds, 0.08);
    histogram(out, "payments", seconds, 0.03);
    double orders = ORDERS_PER_SECOND * seconds;
    out.append("# TYPE orders_total counter\n")
        .append("orders_total{result=\"completed\"} ")
        .append(number(orders))
        .append('\n')
        .append("# TYPE orders_completed_total counter\n")
        .append("orders_completed_total ")
        .append(number(orders))
        .append('\n');
    chaosActive.ifPresent(
        value ->
            out.append("# TYPE chaos_experiment_active gauge\n")
                .append(
                    String.format(
                        Locale.ROOT,
                        "chaos_experiment_active{experiment=\"%s\",target=\"%s\",fault=\"%s\"} %d\n",
                        EXPERIMENT,
                        TARGET,
                        FAULT,
                        value)));
    return out.toString();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private static void requests(
      StringBuilder out, String service, double seconds, double errorRatio) {
    double all = REQUESTS_PER_SECOND * seconds;
    out.append("http_server_requests_total{service=\"")
        .append(service)
        .append("\",route=\"/\",code=\"200\"} ")
        .append(number(all * (1 - errorRatio)))
        .append('\n')
        .append("http_server_requests_total{service=\"")
        .append(service)
        .append("\",route=\"/\",code=\"500\"} ")
        .append(number(all * errorRatio))
        .append('\n');
  }

  private static void histogram(StringBuilder out, String service, double seconds, double latency) {
    double all = REQUESTS_PER_SECOND * seconds;
    String labels = "{service=\"" + service + "\",route=\"/\"";
    for (double bound : BUCKETS) {
      out.append("http_server_request_duration_seconds_bucket")
          .append(labels)
          .append(",le=\"")
          .append(number(bound))
          .append("\"} ")
          .append(number(latency <= bound ? all : 0))
          .append('\n');
    }
    out.append("http_server_request_duration_seconds_bucket")
        .append(labels)
        .append(",le=\"+Inf\"} ")
        .append(number(all))
        .append('\n')
        .append("http_server_request_duration_seconds_sum")
        .append(labels)
        .append("} ")
        .append(number(all * latency))
        .append('\n')
        .append("http_server_request_duration_seconds_count")
        .append(labels)
        .append("} ")
        .append(number(all))
        .append('\n');
  }

  private void serve(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exposition().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private static String number(double value) {
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }
}
