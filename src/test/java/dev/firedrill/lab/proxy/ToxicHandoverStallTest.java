package dev.firedrill.lab.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.lab.service.PaymentsService;
import dev.firedrill.lab.service.PaymentsSettings;
import dev.firedrill.time.Clock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Probe: keep-alive load through the proxy while a latency toxic comes and goes. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ToxicHandoverStallTest {

  private static final int ORDERS = Integer.getInteger("orders", 3000);
  private static final long PERIOD_MICROS = Long.getLong("period", 5_000);

  record Attempt(long sentMs, long tookMs, String outcome) {}

  @Test
  void noRequestStallsWhileALatencyToxicComesAndGoes() throws Exception {
    Clock clock = Clock.system();
    try (PaymentsService payments = PaymentsService.start(PaymentsSettings.defaults());
        FaultProxy proxy = Proxies.http(payments.url())) {
      Admin admin = new Admin(proxy.adminUrl());
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofMillis(300)).build();
      URI pay = proxy.url().resolve("/pay");
      ConcurrentLinkedQueue<List<Attempt>> orders = new ConcurrentLinkedQueue<>();
      List<CompletableFuture<?>> calls = new ArrayList<>();
      ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor();
      ExecutorService workers = Executors.newFixedThreadPool(64);
      long start = clock.nanoTime();
      try {
        for (int i = 0; i < ORDERS; i++) {
          CompletableFuture<Void> call = new CompletableFuture<>();
          calls.add(call);
          sender.schedule(() -> workers.execute(() -> {
            List<Attempt> attempts = new ArrayList<>();
            for (int a = 0; a < 2; a++) {
              long sent = clock.nanoTime();
              String outcome;
              try {
                HttpRequest request = HttpRequest.newBuilder(pay).timeout(Duration.ofMillis(300))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build();
                outcome = Integer.toString(client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode());
              } catch (Exception e) {
                outcome = e.getClass().getSimpleName() + " " + e.getMessage();
              }
              attempts.add(new Attempt((sent - start) / 1_000_000, (clock.nanoTime() - sent) / 1_000_000, outcome));
              if (outcome.equals("200")) {
                break;
              }
            }
            orders.add(attempts);
            call.complete(null);
          }), i * PERIOD_MICROS, TimeUnit.MICROSECONDS);
        }
        List<String> events = new ArrayList<>();
        long end = ORDERS * PERIOD_MICROS / 1000;
        while ((clock.nanoTime() - start) / 1_000_000 < end - 1000) {
          clock.sleep(Duration.ofMillis(Long.getLong("off", 700)));
          events.add((clock.nanoTime() - start) / 1_000_000 + " add");
          admin.add("{\"name\": \"slow\", \"type\": \"latency\", \"toxicity\": 0.5, "
              + "\"attributes\": {\"latency\": 50, \"jitter\": 10}, \"ttl\": \"1m\"}");
          clock.sleep(Duration.ofMillis(Long.getLong("on", 2000)));
          events.add((clock.nanoTime() - start) / 1_000_000 + " remove");
          admin.delete("/proxies/payments/toxics/slow");
        }
        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        List<List<Attempt>> bad = orders.stream().filter(o -> o.size() > 1 || o.get(0).tookMs() > 150)
            .sorted((a, b) -> Long.compare(a.get(0).sentMs(), b.get(0).sentMs())).toList();
        bad.forEach(o -> System.out.println("order " + o));
        long failed = orders.stream().filter(o -> !o.get(o.size() - 1).outcome().equals("200")).count();
        System.out.println("events " + events + "; upstream connections " + proxy.upstreamConnectionsOpened()
            + "; failed orders " + failed + " of " + orders.size());
        assertThat(failed).isZero();
      } finally {
        sender.shutdownNow();
        workers.shutdownNow();
      }
    }
  }
}
