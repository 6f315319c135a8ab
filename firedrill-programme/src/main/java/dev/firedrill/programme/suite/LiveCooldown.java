package dev.firedrill.programme.suite;

import dev.firedrill.alerting.DetectionRow;
import dev.firedrill.alerting.receiver.Notification;
import dev.firedrill.alerting.receiver.WebhookReceiver;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.Measurer;
import dev.firedrill.experiment.AlertExpectation;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.Targets;
import dev.firedrill.prometheus.PrometheusAlert;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The cooldown against the live stack, polled once a second. Quiet means three things at once: the
 * previous experiment's steady state holds; Prometheus lists none of the alerts that drill saw fire
 * as pending or firing; and, when that drill had firedrill's webhook receiver, a stand-in on the
 * receiver's address has taken Alertmanager's resolved notification of each alert that notified.
 * The last one matters: Alertmanager whose resolved notification fails skips the next firing one of
 * the same group as already sent, so the next drill would miss its page.
 */
public final class LiveCooldown implements Cooldown {

  /** What to poll for one experiment; the stand-in is closed when the wait ends. */
  public record Probes(Measurer measurer, AlertSource alerts, Optional<WebhookReceiver> standIn) {}

  /** The alerts Prometheus evaluates as pending or firing now ({@code /api/v1/alerts}). */
  @FunctionalInterface
  public interface AlertSource {
    List<PrometheusAlert> active() throws PrometheusException;
  }

  private static final Duration POLL = Duration.ofSeconds(1);

  private final Function<Experiment, Probes> probes;
  private final Clock clock;

  public LiveCooldown(Function<Experiment, Probes> probes, Clock clock) {
    this.probes = probes;
    this.clock = clock;
  }

  @Override
  public Waited await(Suite.Entry previous, DrillResult result, Duration limit)
      throws InterruptedException {
    List<AlertExpectation> fired = fired(result);
    List<String> notified =
        result.observability().stream()
            .flatMap(o -> o.rows().stream())
            .filter(r -> r.fired() && r.timeToNotify().isPresent())
            .map(r -> r.expectation().alert())
            .distinct()
            .toList();
    Probes probe = probes.apply(previous.experiment());
    long start = clock.nanoTime();
    try {
      while (true) {
        List<String> still = unsettled(probe, fired, notified);
        Duration waited = Duration.ofNanos(clock.nanoTime() - start);
        if (still.isEmpty()) {
          return new Waited(true, waited, List.of());
        }
        if (waited.compareTo(limit) >= 0) {
          return new Waited(false, waited, still);
        }
        clock.sleep(POLL);
      }
    } finally {
      probe.standIn().ifPresent(WebhookReceiver::close);
    }
  }

  /** The expectations whose alert fired during the drill, silent ones included. */
  private static List<AlertExpectation> fired(DrillResult result) {
    return result.observability().stream()
        .flatMap(o -> o.rows().stream())
        .filter(DetectionRow::fired)
        .map(DetectionRow::expectation)
        .toList();
  }

  private static List<String> unsettled(
      Probes probe, List<AlertExpectation> fired, List<String> notified)
      throws InterruptedException {
    List<String> still = new ArrayList<>();
    if (!probe.measurer().measure(Targets.BEFORE_INJECTION).withinSteadyState()) {
      still.add("the steady state");
    }
    try {
      for (PrometheusAlert alert : probe.alerts().active()) {
        for (AlertExpectation expectation : fired) {
          if (expectation.matches(alert.labels()) && !still.contains(expectation.describe())) {
            still.add(expectation.describe());
          }
        }
      }
    } catch (PrometheusException e) {
      still.add("the alerts (" + e.getMessage() + ")");
    }
    probe
        .standIn()
        .ifPresent(
            receiver -> {
              for (String alert : notified) {
                if (receiver.notifications().stream().noneMatch(n -> resolves(n, alert))) {
                  still.add(alert + "'s resolved notification");
                }
              }
            });
    return still;
  }

  private static boolean resolves(Notification n, String alert) {
    return "resolved".equals(n.message().status())
        && n.message().alerts().stream().anyMatch(a -> alert.equals(a.labels().get("alertname")));
  }
}
