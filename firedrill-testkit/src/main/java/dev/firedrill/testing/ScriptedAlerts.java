package dev.firedrill.testing;

import dev.firedrill.alerting.AlertStack;
import dev.firedrill.alerting.AlertStackException;
import dev.firedrill.alerting.Delivery;
import dev.firedrill.alerting.PromAlert;
import dev.firedrill.alerting.RoutedAlert;
import dev.firedrill.alerting.RuleBook;
import dev.firedrill.alerting.Truncation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An alert stack scripted over the seconds since its drill began: Prometheus's rules, alerts that
 * go pending, fire and resolve at given offsets, the webhooks firedrill's receiver gets for them,
 * the notifications Alertmanager cut short, and stretches when Prometheus cannot be read. It has no
 * Alertmanager API, and every link answers 200.
 */
public final class ScriptedAlerts implements AlertStack {

  private final ScriptedDrill drill;
  private RuleBook rules =
      new RuleBook(List.of(), Map.of(), Duration.ofMinutes(1), Duration.ofMinutes(1));
  private final List<Alert> alerts = new ArrayList<>();
  private final List<Truncation> truncations = new ArrayList<>();
  private double unreadableFrom = Double.POSITIVE_INFINITY;
  private double unreadableUntil = Double.POSITIVE_INFINITY;
  private final List<Double> reads = new java.util.concurrent.CopyOnWriteArrayList<>();

  ScriptedAlerts(ScriptedDrill drill) {
    this.drill = drill;
  }

  /** Prometheus's rules; none until set. */
  public ScriptedAlerts rules(RuleBook rules) {
    this.rules = rules;
    return this;
  }

  /** An alert with these labels and annotations; inactive until {@link Alert#pendingAt}. */
  public Alert alert(Map<String, String> labels, Map<String, String> annotations) {
    Alert alert = new Alert(labels, annotations);
    alerts.add(alert);
    return alert;
  }

  /** A notification that left out alerts, received when the truncation says. */
  public ScriptedAlerts truncation(Truncation truncation) {
    truncations.add(truncation);
    return this;
  }

  /**
   * Prometheus's alerts cannot be read from {@code from} until {@code until}: it is unreachable.
   */
  public ScriptedAlerts unreadable(double from, double until) {
    unreadableFrom = from;
    unreadableUntil = until;
    return this;
  }

  /** When the drill read the alerts, in seconds since it began: its polls, in order. */
  public List<Double> reads() {
    return List.copyOf(reads);
  }

  /** One alert's life, in seconds since the drill began. */
  public static final class Alert {
    private final Map<String, String> labels;
    private final Map<String, String> annotations;
    private double pendingAt = Double.POSITIVE_INFINITY;
    private double firingAt = Double.POSITIVE_INFINITY;
    private double resolvedAt = Double.POSITIVE_INFINITY;
    private double notifiedAt = Double.POSITIVE_INFINITY;
    private String receiver = "";

    private Alert(Map<String, String> labels, Map<String, String> annotations) {
      this.labels = Map.copyOf(labels);
      this.annotations = Map.copyOf(annotations);
    }

    /** Prometheus has it pending from then on; that is its activeAt. */
    public Alert pendingAt(double seconds) {
      pendingAt = seconds;
      return this;
    }

    public Alert firingAt(double seconds) {
      firingAt = seconds;
      return this;
    }

    /** From then on Prometheus no longer lists it. */
    public Alert resolvedAt(double seconds) {
      resolvedAt = seconds;
      return this;
    }

    /**
     * firedrill's receiver gets its firing webhook, routed to {@code receiver}, with startsAt when
     * it fired.
     */
    public Alert notifiedAt(double seconds, String receiver) {
      if (seconds < firingAt) {
        throw new IllegalStateException(
            "an alert is notified once it fires: firingAt(<= " + seconds + ") first");
      }
      notifiedAt = seconds;
      this.receiver = receiver;
      return this;
    }
  }

  @Override
  public RuleBook rules() {
    return rules;
  }

  @Override
  public List<PromAlert> alerts() throws AlertStackException {
    double t = drill.seconds();
    reads.add(t);
    if (t >= unreadableFrom && t < unreadableUntil) {
      throw new AlertStackException("Prometheus at http://127.0.0.1:9 is unreachable");
    }
    return alerts.stream()
        .filter(a -> t >= a.pendingAt && t < a.resolvedAt)
        .map(
            a ->
                new PromAlert(
                    a.labels,
                    a.annotations,
                    t >= a.firingAt ? "firing" : "pending",
                    Optional.of(drill.at(a.pendingAt))))
        .toList();
  }

  @Override
  public List<RoutedAlert> routed() {
    return List.of();
  }

  @Override
  public List<Delivery> deliveries() {
    double t = drill.seconds();
    return alerts.stream()
        .filter(a -> t >= a.notifiedAt)
        .map(
            a ->
                new Delivery(
                    drill.at(a.notifiedAt),
                    a.receiver,
                    "firing",
                    a.labels,
                    a.annotations,
                    drill.at(a.firingAt),
                    "fp" + alerts.indexOf(a)))
        .toList();
  }

  @Override
  public List<Truncation> truncations() {
    return List.copyOf(truncations);
  }

  @Override
  public Optional<Integer> linkStatus(String url) {
    return Optional.of(200);
  }
}
