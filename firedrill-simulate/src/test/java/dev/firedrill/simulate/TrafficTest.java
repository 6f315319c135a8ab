package dev.firedrill.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each fault's effect on the rates the lab's services expose, against checkout's timeout and one
 * retry.
 */
class TrafficTest {

  private static final LabModel LAB = LabModel.lab();

  @Test
  void withoutFaultsEveryCheckoutCompletesAndPaymentsServesEachOnce() {
    Traffic.Rates rates = Traffic.of(LAB, List.of());

    assertThat(rates.checkout().codes())
        .containsExactly(entry("200", 20.0), entry("500", 0.0), entry("502", 0.0));
    assertThat(rates.payments().codes()).containsExactly(entry("200", 20.0), entry("500", 0.0));
    assertThat(rates.orders())
        .containsExactly(entry("completed", 20.0), entry("pending", 0.0), entry("failed", 0.0));
  }

  @Test
  void aProxyAnswering503ToEveryCallFailsEveryCheckoutAndPaymentsSeesNone() {
    Traffic.Rates rates = Traffic.of(LAB, List.of(new Effect.Failing("payments", 1, 503)));

    assertThat(rates.checkout().codes().get("502")).isEqualTo(20.0);
    assertThat(rates.checkout().codes().get("200")).isEqualTo(0.0);
    assertThat(rates.payments().codes().get("200")).isEqualTo(0.0);
    assertThat(rates.orders().get("failed")).isEqualTo(20.0);
  }

  @Test
  void theRetryHidesMostOfATenPercentErrorShare() {
    Traffic.Rates rates = Traffic.of(LAB, List.of(new Effect.Failing("payments", 0.1, 503)));

    // Both attempts must fail: 0.1 * 0.1 of the checkouts, a 1% error ratio, below the page's
    // 1.44%.
    assertThat(rates.checkout().codes().get("502")).isCloseTo(0.2, within(1e-9));
    assertThat(rates.payments().codes().get("200")).isCloseTo(20 * (0.9 + 0.1 * 0.9), within(1e-9));
  }

  @Test
  void latencyBeyondCheckoutsTimeoutLeavesOrdersPendingWhileHttpStaysGreen() {
    Traffic.Rates rates =
        Traffic.of(LAB, List.of(new Effect.Slower("payments", 1, Latency.fixed(0.4))));

    assertThat(rates.checkout().codes().get("200")).isCloseTo(20.0, within(1e-9));
    assertThat(rates.orders().get("pending")).isCloseTo(20.0, within(1e-9));
    // Payments served both attempts, late.
    assertThat(rates.payments().codes().get("200")).isCloseTo(40.0, within(1e-9));
    // Two timed-out attempts of 300 ms: no checkout answers within 0.5 s.
    double answeredInHalfASecond =
        rates.checkout().served().stream()
            .mapToDouble(s -> s.rate() * s.latency().atMost(0.5))
            .sum();
    assertThat(answeredInHalfASecond).isEqualTo(0.0);
  }

  @Test
  void latencyWithinTheTimeoutOnlySlowsTheShareItTouches() {
    Traffic.Rates rates =
        Traffic.of(
            LAB,
            List.of(
                new Effect.Slower(
                    "payments",
                    0.5,
                    Latency.uniform(Duration.ofMillis(50), Duration.ofMillis(10)))));

    double fast =
        rates.checkout().served().stream()
            .mapToDouble(s -> s.rate() * s.latency().atMost(0.025))
            .sum();
    assertThat(fast).isCloseTo(10.0, within(1e-9));
    assertThat(rates.orders().get("completed")).isCloseTo(20.0, within(1e-9));
  }

  @Test
  void aKilledPaymentsRefusesEveryCallAndACpuBurnSlowsEveryService() {
    Traffic.Rates down = Traffic.of(LAB, List.of(new Effect.Down("payments")));
    Traffic.Rates burning = Traffic.of(LAB, List.of(new Effect.CpuBurn(20)));

    assertThat(down.checkout().codes().get("502")).isEqualTo(20.0);
    assertThat(down.payments().codes().get("200")).isEqualTo(0.0);
    // 20 workers at 5 ms each: payments' 10 ms (+-2) becomes 110 ms, above the 0.1 s bucket.
    assertThat(burning.payments().served().get(0).latency().atMost(0.1)).isEqualTo(0.0);
  }

  @Test
  void heldCallsTimeOutAtCheckoutsTimeoutOrFailWhenClosedFirst() {
    Traffic.Rates held = Traffic.of(LAB, List.of(new Effect.Held("payments", 1, Duration.ZERO)));
    Traffic.Rates closed =
        Traffic.of(LAB, List.of(new Effect.Held("payments", 1, Duration.ofMillis(100))));

    assertThat(held.orders().get("pending")).isEqualTo(20.0);
    assertThat(closed.orders().get("failed")).isEqualTo(20.0);
  }

  private static java.util.Map.Entry<String, Double> entry(String key, double value) {
    return java.util.Map.entry(key, value);
  }
}
