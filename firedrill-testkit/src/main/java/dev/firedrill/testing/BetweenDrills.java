package dev.firedrill.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.alerting.receiver.ReceiverConfig;
import dev.firedrill.alerting.receiver.WebhookReceiver;
import dev.firedrill.lab.stack.LabStack;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusAlert;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.time.Clock;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What the real-stack drill tests do between two drills on one lab, whichever backend evaluates its
 * rules (Prometheus, or vmalert over VictoriaMetrics): wait until the previous drill's alerts have
 * resolved and its errors have left the windows, and deliver Alertmanager's resolved notification
 * to a stand-in receiver.
 */
public final class BetweenDrills {

  /** The lab alerts the fixture drills expect, firing or silent. */
  public static final List<String> DRILLED =
      List.of("CheckoutErrorBudgetBurn", "CheckoutOrdersPending", "CheckoutLatencyHigh");

  private BetweenDrills() {}

  /**
   * The previous drill's lab alerts must be resolved, or the next preflight is rightly not-run, and
   * no error may be left in the 30s windows, or the next alert fires sooner than a clean fault can.
   * {@code rules} lists the alerts ({@code /api/v1/alerts}: Prometheus or vmalert); {@code query}
   * answers PromQL. (The real-window SLO alerts of alert-rules/checkout-slo.yml stay firing for an
   * hour in a young lab; no drill here expects them.)
   */
  public static void awaitQuiet(URI rules, URI query) throws InterruptedException {
    HttpPrometheusClient client =
        new HttpPrometheusClient(rules, Duration.ofSeconds(2), Optional.empty());
    Clock clock = Clock.system();
    long deadline = clock.nanoTime() + Duration.ofSeconds(90).toNanos();
    List<PrometheusAlert> active = drilled(client);
    while ((active == null || !active.isEmpty()) && clock.nanoTime() - deadline < 0) {
      clock.sleep(Duration.ofSeconds(1));
      active = drilled(client);
    }
    assertThat(active).as("alerts still active before the drill (from %s)", rules).isEmpty();
    LabStack.awaitQuery(
        query,
        "service:http_errors:rate30s{service=\"checkout\"} == 0",
        Duration.ofSeconds(60),
        clock,
        "the lab's folder");
  }

  /** The drilled alerts active now; null when the list cannot be read. */
  private static List<PrometheusAlert> drilled(HttpPrometheusClient client) {
    try {
      return client.alerts().stream().filter(a -> DRILLED.contains(a.alertname())).toList();
    } catch (PrometheusException e) {
      return null;
    }
  }

  /**
   * A drill's receiver stops listening when the drill ends, so Alertmanager's resolved notification
   * fails, and it then skips the next firing notification of the same alert as already sent.
   * Between drills a stand-in on the receiver's port takes the resolved notification of {@code
   * alert}, as a user's always-on receiver would (at most 90 s).
   */
  public static void deliverResolved(int webhookPort, String alert) throws Exception {
    ReceiverConfig config = ReceiverConfig.defaults().withListen("127.0.0.1:" + webhookPort);
    Clock clock = Clock.system();
    try (WebhookReceiver standIn = WebhookReceiver.start(config, clock)) {
      long deadline = clock.nanoTime() + Duration.ofSeconds(90).toNanos();
      while (clock.nanoTime() - deadline < 0
          && standIn.notifications().stream()
              .noneMatch(
                  n ->
                      "resolved".equals(n.message().status())
                          && n.message().alerts().stream()
                              .anyMatch(a -> alert.equals(a.labels().get("alertname"))))) {
        clock.sleep(Duration.ofMillis(200));
      }
    }
  }
}
