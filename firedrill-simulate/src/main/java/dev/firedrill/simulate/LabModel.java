package dev.firedrill.simulate;

import java.time.Duration;
import java.util.Objects;

/**
 * The lab as a model: an open-loop load of {@code rate} checkouts a second, checkout calling
 * payments with a client timeout and one retry (see {@code lab/service/CheckoutService}), and how
 * much latency each cpu-burn worker adds to every service on the host.
 */
public record LabModel(
    double rate,
    ServiceModel checkout,
    ServiceModel payments,
    Duration checkoutTimeout,
    Duration cpuBurnLatencyPerWorker) {

  public static final String CHECKOUT = "checkout";
  public static final String PAYMENTS = "payments";

  public LabModel {
    Objects.requireNonNull(checkout, "checkout");
    Objects.requireNonNull(payments, "payments");
    if (!(rate > 0)) {
      throw new IllegalArgumentException(
          "request rate " + rate + " is not positive (expected checkouts a second, such as 20)");
    }
    if (checkoutTimeout.isNegative() || checkoutTimeout.isZero()) {
      throw new IllegalArgumentException(
          "checkout timeout " + checkoutTimeout + " is not positive (expected such as 300ms)");
    }
  }

  /**
   * What {@code firedrill lab up} runs: 20 checkouts a second (its load's default), payments
   * answering in 10 ms (its default), checkout's 300 ms client timeout. The jitters and checkout's
   * own millisecond are what the lab's loopback hops measure; a cpu-burn worker's 5 ms is a guess.
   */
  public static LabModel lab() {
    return new LabModel(
        20,
        new ServiceModel(CHECKOUT, 0, Duration.ofMillis(1), Duration.ofMillis(1)),
        new ServiceModel(PAYMENTS, 0, Duration.ofMillis(10), Duration.ofMillis(2)),
        Duration.ofMillis(300),
        Duration.ofMillis(5));
  }

  public LabModel withRate(double value) {
    return new LabModel(value, checkout, payments, checkoutTimeout, cpuBurnLatencyPerWorker);
  }

  public LabModel withPayments(ServiceModel value) {
    return new LabModel(rate, checkout, value, checkoutTimeout, cpuBurnLatencyPerWorker);
  }

  public LabModel withCheckoutTimeout(Duration value) {
    return new LabModel(rate, checkout, payments, value, cpuBurnLatencyPerWorker);
  }
}
