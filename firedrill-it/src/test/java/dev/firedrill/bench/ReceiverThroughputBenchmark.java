package dev.firedrill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.alerting.receiver.Notification;
import dev.firedrill.alerting.receiver.ReceiverConfig;
import dev.firedrill.alerting.receiver.WebhookReceiver;
import dev.firedrill.time.Clock;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The webhook receiver's throughput with big notifications: {@value #ALERTS} alerts per payload
 * (labels and annotations the size of a real Kubernetes alert), posted by {@value #CLIENTS} client
 * threads, each with its own keep-alive HTTP/1.1 connection, as fast as the receiver answers, for
 * {@value #SECONDS} s after a 2 s warm-up. The clients use {@link HttpURLConnection}:
 * java.net.http's client took about 10 s per 880 KB POST against the JDK's server here, while curl
 * took 0.1 s, so it would measure the client. Prints payloads/s, alerts/s, MB/s, the server-side
 * handling time (arrival to recorded, parse included) and the client round trip, p50 and p99.
 * Asserts only that nothing was lost: every alert of every 200 is recorded.
 *
 * <p>Not run by default: {@code mvn -B -q -o test -Dtest=ReceiverThroughputBenchmark}.
 */
class ReceiverThroughputBenchmark {

  static final int ALERTS = 1000;
  static final int CLIENTS = 4;
  static final int SECONDS = 5;

  @Test
  void webhooksPerSecond() throws Exception {
    byte[][] payloads = new byte[CLIENTS][];
    for (int c = 0; c < CLIENTS; c++) {
      payloads[c] = payload(c).getBytes(StandardCharsets.UTF_8);
    }
    ReceiverConfig config = ReceiverConfig.defaults().withMaxPayloadBytes(4L * 1024 * 1024);
    try (WebhookReceiver receiver = WebhookReceiver.start(config, Clock.system())) {
      ConcurrentLinkedQueue<Long> handlingNanos = new ConcurrentLinkedQueue<>();
      AtomicLong listenerAlerts = new AtomicLong();
      receiver.onNotification(
          n -> {
            Instant now = Instant.now();
            handlingNanos.add(Duration.between(n.receivedAt(), now).toNanos());
            listenerAlerts.addAndGet(n.message().alerts().size());
          });

      run(receiver.url(), payloads, Duration.ofSeconds(2), new ArrayList<>()); // warm-up
      int warmNotifications = receiver.notifications().size();
      handlingNanos.clear();

      List<Long> roundTrips = Collections.synchronizedList(new ArrayList<>());
      long start = System.nanoTime();
      long[] sent = run(receiver.url(), payloads, Duration.ofSeconds(SECONDS), roundTrips);
      double elapsed = (System.nanoTime() - start) / 1e9;

      List<Notification> all = receiver.notifications();
      List<Notification> measured = all.subList(warmNotifications, all.size());
      long receivedAlerts = measured.stream().mapToLong(n -> n.message().alerts().size()).sum();
      long sentPayloads = sent[0];
      long sentAlerts = sentPayloads * ALERTS;
      long sentBytes = sent[1];
      List<Long> handled = new ArrayList<>(handlingNanos);

      BenchReport report = new BenchReport("ReceiverThroughputBenchmark");
      report.line(
          "%d client threads, %d alerts per payload, %.1f KB per payload, %.1f s measured",
          CLIENTS, ALERTS, payloads[0].length / 1024.0, elapsed);
      report.line(
          "payloads: %d sent (200), %d recorded; alerts: %d sent, %d recorded; lost: %d; rejections: %d",
          sentPayloads,
          measured.size(),
          sentAlerts,
          receivedAlerts,
          sentAlerts - receivedAlerts,
          receiver.rejectedCount());
      report.line(
          "throughput: %.1f payloads/s, %.0f alerts/s, %.1f MB/s",
          sentPayloads / elapsed, sentAlerts / elapsed, sentBytes / elapsed / 1e6);
      report.line(
          "server handling (arrival -> parsed, recorded, listener): p50 %.2f ms, p99 %.2f ms, max %.2f ms",
          percentile(handled, 50), percentile(handled, 99), percentile(handled, 100));
      report.line(
          "client round trip (POST -> 200): p50 %.2f ms, p99 %.2f ms, max %.2f ms",
          percentile(roundTrips, 50), percentile(roundTrips, 99), percentile(roundTrips, 100));
      report.line(
          "heap used after the run: %d MB (the receiver keeps every notification)",
          (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) / (1024 * 1024));
      report.finish();

      assertThat(receivedAlerts)
          .as("alerts recorded vs alerts sent with a 200")
          .isEqualTo(sentAlerts);
      assertThat(measured).hasSize((int) sentPayloads);
      assertThat(receiver.rejectedCount()).isZero();
    }
  }

  /** Posts until {@code duration} has passed; returns {payloads answered 200, bytes sent}. */
  private static long[] run(URI url, byte[][] payloads, Duration duration, List<Long> roundTrips)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    long deadline = System.nanoTime() + duration.toNanos();
    List<Future<long[]>> results = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      byte[] body = payloads[c];
      results.add(
          pool.submit(
              () -> {
                long ok = 0;
                long bytes = 0;
                while (System.nanoTime() - deadline < 0) {
                  long t0 = System.nanoTime();
                  // HttpURLConnection keeps the connection alive between posts (one per thread
                  // here).
                  HttpURLConnection post = (HttpURLConnection) url.toURL().openConnection();
                  post.setRequestMethod("POST");
                  post.setDoOutput(true);
                  post.setFixedLengthStreamingMode(body.length);
                  post.setRequestProperty("Content-Type", "application/json");
                  post.setConnectTimeout(30_000);
                  post.setReadTimeout(30_000);
                  try (OutputStream out = post.getOutputStream()) {
                    out.write(body);
                  }
                  int status = post.getResponseCode();
                  try (InputStream in = post.getInputStream()) {
                    in.readAllBytes();
                  }
                  roundTrips.add(System.nanoTime() - t0);
                  if (status != 200) {
                    throw new AssertionError("the receiver answered " + status);
                  }
                  ok++;
                  bytes += body.length;
                }
                return new long[] {ok, bytes};
              }));
    }
    long[] total = new long[2];
    for (Future<long[]> result : results) {
      long[] r = result.get();
      total[0] += r[0];
      total[1] += r[1];
    }
    pool.shutdown();
    return total;
  }

  private static double percentile(List<Long> nanos, int p) {
    if (nanos.isEmpty()) {
      return Double.NaN;
    }
    List<Long> sorted = new ArrayList<>(nanos);
    Collections.sort(sorted);
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index))) / 1e6;
  }

  /** A firing group of {@value #ALERTS} pod-level alerts, as Alertmanager would send it. */
  private static String payload(int client) {
    StringBuilder json = new StringBuilder(1 << 20);
    json.append("{\"receiver\":\"team-payments\",\"status\":\"firing\",\"alerts\":[");
    for (int i = 0; i < ALERTS; i++) {
      String pod = String.format(Locale.ROOT, "payments-api-7d9f8c6b5d-%05d", i);
      json.append(i == 0 ? "" : ",")
          .append("{\"status\":\"firing\",\"labels\":{")
          .append(
              "\"alertname\":\"PaymentsHighErrorRate\",\"cluster\":\"prod-eu-west-1\",\"container\":\"api\",")
          .append("\"instance\":\"10.12.")
          .append(i / 250)
          .append('.')
          .append(i % 250)
          .append(":8080\",")
          .append("\"job\":\"kubernetes-pods\",\"namespace\":\"payments\",\"pod\":\"")
          .append(pod)
          .append("\",")
          .append("\"service\":\"payments\",\"severity\":\"page\",\"team\":\"payments\"},")
          .append("\"annotations\":{\"summary\":\"payments error ratio above 5% on ")
          .append(pod)
          .append("\",")
          .append("\"description\":\"The 5m error ratio of ")
          .append(pod)
          .append(
              " is 7.3% (threshold 5%). Check the upstream card processor and recent deploys.\",")
          .append("\"runbook_url\":\"https://runbooks.example.com/payments/high-error-rate\",")
          .append("\"dashboard\":\"https://grafana.example.com/d/payments-red/payments?var-pod=")
          .append(pod)
          .append("\"},")
          .append("\"startsAt\":\"2024-05-14T09:12:03.123Z\",\"endsAt\":\"0001-01-01T00:00:00Z\",")
          .append(
              "\"generatorURL\":\"http://prometheus:9090/graph?g0.expr=payments%3Aerror_ratio%3Arate5m+%3E+0.05&g0.tab=1\",")
          .append("\"fingerprint\":\"")
          .append(String.format(Locale.ROOT, "%016x", (long) client << 32 | i))
          .append("\"}");
    }
    json.append("],\"groupLabels\":{\"alertname\":\"PaymentsHighErrorRate\"},")
        .append("\"commonLabels\":{\"alertname\":\"PaymentsHighErrorRate\",\"team\":\"payments\"},")
        .append(
            "\"commonAnnotations\":{},\"externalURL\":\"http://alertmanager:9093\",\"version\":\"4\",")
        .append(
            "\"groupKey\":\"{}/{team=\\\"payments\\\"}:{alertname=\\\"PaymentsHighErrorRate\\\", client=\\\"")
        .append(client)
        .append("\\\"}\",\"truncatedAlerts\":0}");
    return json.toString();
  }
}
