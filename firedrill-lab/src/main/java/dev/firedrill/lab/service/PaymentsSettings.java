package dev.firedrill.lab.service;

import dev.firedrill.net.HostPort;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * How to run payments.
 *
 * @param listen where {@code POST /pay} is served
 * @param metrics where {@code /metrics} is served
 * @param latency how long each answer waits (no thread is held while it waits)
 * @param errorRatio the share of requests answered 500, from 0 to 1
 */
public record PaymentsSettings(
    InetSocketAddress listen, InetSocketAddress metrics, Duration latency, double errorRatio) {

  public static final Duration DEFAULT_LATENCY = Duration.ofMillis(10);
  static final Duration MAX_LATENCY = Duration.ofMinutes(10);

  public PaymentsSettings {
    Objects.requireNonNull(listen, "listen");
    Objects.requireNonNull(metrics, "metrics");
    checkLatency(latency);
    checkErrorRatio(errorRatio);
  }

  /** 127.0.0.1 on free ports, 10 ms, no errors. */
  public static PaymentsSettings defaults() {
    return new PaymentsSettings(
        HostPort.loopbackAnyPort(), HostPort.loopbackAnyPort(), DEFAULT_LATENCY, 0);
  }

  public PaymentsSettings withListen(InetSocketAddress address) {
    return new PaymentsSettings(address, metrics, latency, errorRatio);
  }

  public PaymentsSettings withMetrics(InetSocketAddress address) {
    return new PaymentsSettings(listen, address, latency, errorRatio);
  }

  public PaymentsSettings withLatency(Duration value) {
    return new PaymentsSettings(listen, metrics, value, errorRatio);
  }

  public PaymentsSettings withErrorRatio(double value) {
    return new PaymentsSettings(listen, metrics, latency, value);
  }

  static Duration checkLatency(Duration latency) {
    if (latency == null || latency.isNegative() || latency.compareTo(MAX_LATENCY) > 0) {
      throw new IllegalArgumentException(
          "payments latency " + latency + " is not usable (expected 0 to 10m)");
    }
    return latency;
  }

  static double checkErrorRatio(double ratio) {
    if (!(ratio >= 0 && ratio <= 1)) {
      throw new IllegalArgumentException(
          "payments error ratio " + ratio + " is not usable (expected a number from 0 to 1)");
    }
    return ratio;
  }
}
