package dev.firedrill.testing;

import java.time.Duration;

/**
 * The drill that the real-stack detection tests and benchmark run against {@link RealLab}: payments
 * answers every call with 503 behind the fault proxy, checkout's error ratio is the steady state,
 * and the abort rule is out of reach, since detection is what is measured and nothing the fault
 * does may stop the drill early. Written for the lab's default ports; {@code LabPorts.rewrite}
 * moves it to a lab's own.
 */
public final class PaymentsOutageDrill {

  /** The page the fault should raise, routed to checkout's team, as an {@code alerts} entry. */
  public static final String PAGE =
      """
          - alert: CheckoutErrorBudgetBurn
            matchers: {service: checkout}
            within: 20s
            receiver: team-checkout
      """;

  private static final String EXPERIMENT =
      """
      id: %s
      title: %s
      prometheus: {url: http://127.0.0.1:19090, timeout: 2s}
      alertmanager: {url: http://127.0.0.1:19093}
      receiver: {listen: 127.0.0.1:19101}
      steady_state:
        interval: 1s
        slis:
          - name: checkout_error_ratio
            query: service:http_error_ratio:rate5s{service="checkout"}
            max: 0.01
      hypothesis:
        recovery: 20s
        alerts:
      %s
      method:
        duration: %ds
        faults:
          - kind: http-error
            proxy: http://127.0.0.1:18474
            proxy_name: payments
            share: 1
            status: 503
            ttl: 1m
      abort:
        rules:
          - sli: checkout_error_ratio
            above: 2
      blast_radius:
        traffic_share: 100%%
        max_duration: 5m
        budget_ceiling: 5%%
      """;

  private PaymentsOutageDrill() {}

  /**
   * The experiment file's text; {@code alerts} are entries of {@code hypothesis.alerts}, each line
   * indented by four spaces, as {@link #PAGE}.
   */
  public static String experiment(String id, String title, String alerts, Duration fault) {
    return EXPERIMENT.formatted(id, title, alerts.stripTrailing(), fault.toSeconds());
  }
}
