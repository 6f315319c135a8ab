package dev.firedrill.embedded.rules;

import dev.firedrill.embedded.notify.OutgoingAlert;
import dev.firedrill.embedded.rules.snapshot.AlertSnapshot;
import dev.firedrill.embedded.rules.snapshot.RuleSnapshot;
import dev.firedrill.embedded.rules.template.AlertTemplates;
import dev.firedrill.embedded.rules.template.Template;
import dev.firedrill.format.GoFloat;
import dev.firedrill.promql.eval.Value;
import dev.firedrill.promql.model.LabelSet;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An alerting rule with Prometheus's state machine: a new result is pending, fires once it has been
 * active for {@code for}, keeps firing {@code keep_firing_for} after its result is gone, and a
 * resolved alert is kept 15 minutes so that its resolution is sent again. Every evaluation writes
 * {@code ALERTS} and {@code ALERTS_FOR_STATE} for each pending or firing alert.
 */
final class AlertingRule implements Rule {

  /** How long a resolved alert is kept (and resent), Prometheus's {@code resolvedRetention}. */
  static final long RESOLVED_RETENTION_MS = 15 * 60_000L;

  static final String ALERTS = "ALERTS";
  static final String ALERTS_FOR_STATE = "ALERTS_FOR_STATE";
  private static final long UNSET = Long.MIN_VALUE;

  /** One alert of the rule; mutable, guarded by the rule. */
  private static final class Alert {
    final LabelSet labels;
    Map<String, String> annotations;
    AlertState state = AlertState.PENDING;
    double value;
    final long activeAtMs;
    long firedAtMs = UNSET;
    long resolvedAtMs = UNSET;
    long lastSentAtMs = UNSET;
    long validUntilMs = UNSET;
    long keepFiringSinceMs = UNSET;

    Alert(LabelSet labels, Map<String, String> annotations, double value, long activeAtMs) {
      this.labels = labels;
      this.annotations = annotations;
      this.value = value;
      this.activeAtMs = activeAtMs;
    }

    boolean needsSending(long timeMs, long resendDelayMs) {
      if (state == AlertState.PENDING) {
        return false;
      }
      if (resolvedAtMs != UNSET && (lastSentAtMs == UNSET || resolvedAtMs > lastSentAtMs)) {
        return true;
      }
      return lastSentAtMs == UNSET || lastSentAtMs + resendDelayMs < timeMs;
    }
  }

  private final RuleSpec.Alerting spec;
  private final Map<String, Template> labelTemplates = new TreeMap<>();
  private final Map<String, Template> annotationTemplates = new TreeMap<>();
  private final Map<String, String> externalLabels;
  private final String externalUrl;
  private final RuleStatus status = new RuleStatus();

  /** By label set, in the order alerts became active. */
  private final Map<LabelSet, Alert> active = new LinkedHashMap<>();

  AlertingRule(RuleSpec.Alerting spec, Map<String, String> externalLabels, String externalUrl) {
    this.spec = spec;
    this.externalLabels = Map.copyOf(externalLabels);
    this.externalUrl = externalUrl;
    spec.labels()
        .forEach(
            (name, text) -> labelTemplates.put(name, AlertTemplates.compile(spec.name(), text)));
    spec.annotations()
        .forEach(
            (name, text) ->
                annotationTemplates.put(name, AlertTemplates.compile(spec.name(), text)));
  }

  @Override
  public RuleSpec.Alerting spec() {
    return spec;
  }

  @Override
  public synchronized List<Value.Sample> eval(long timeMs, RuleQuery query, int limit) {
    Map<LabelSet, Alert> results = new LinkedHashMap<>();
    for (Value.Sample sample : query.query(spec.expr(), timeMs).samples()) {
      AlertTemplates.Data data =
          new AlertTemplates.Data(
              sample.labels().toMap(), externalLabels, externalUrl, sample.value());
      LabelSet.Builder labels = sample.labels().toBuilder().remove(LabelSet.METRIC_NAME);
      labelTemplates.forEach(
          (name, template) -> labels.set(name, AlertTemplates.expand(template, data)));
      labels.set("alertname", spec.name());
      Map<String, String> annotations = new TreeMap<>();
      annotationTemplates.forEach(
          (name, template) -> annotations.put(name, AlertTemplates.expand(template, data)));
      LabelSet built = labels.build();
      if (results.containsKey(built)) {
        throw new IllegalStateException(
            "vector contains metrics with the same labelset after applying alert labels");
      }
      results.put(built, new Alert(built, Map.copyOf(annotations), sample.value(), timeMs));
    }
    results.forEach(
        (labels, fresh) -> {
          Alert existing = active.get(labels);
          if (existing != null && existing.state != AlertState.INACTIVE) {
            existing.value = fresh.value;
            existing.annotations = fresh.annotations;
          } else {
            active.put(labels, fresh);
          }
        });
    List<Value.Sample> out = new ArrayList<>();
    int activeCount = 0;
    for (Iterator<Alert> it = active.values().iterator(); it.hasNext(); ) {
      Alert alert = it.next();
      if (!results.containsKey(alert.labels)) {
        boolean keepFiring = false;
        if (alert.state == AlertState.FIRING && spec.keepFiringForMs() > 0) {
          if (alert.keepFiringSinceMs == UNSET) {
            alert.keepFiringSinceMs = timeMs;
          }
          keepFiring = timeMs - alert.keepFiringSinceMs < spec.keepFiringForMs();
        }
        if (alert.state == AlertState.PENDING
            || alert.resolvedAtMs != UNSET && timeMs - alert.resolvedAtMs > RESOLVED_RETENTION_MS) {
          it.remove();
        }
        if (alert.state != AlertState.INACTIVE && !keepFiring) {
          alert.state = AlertState.INACTIVE;
          alert.resolvedAtMs = timeMs;
        }
        if (!keepFiring) {
          continue;
        }
      } else {
        alert.keepFiringSinceMs = UNSET;
      }
      activeCount++;
      if (alert.state == AlertState.PENDING && timeMs - alert.activeAtMs >= spec.forMs()) {
        alert.state = AlertState.FIRING;
        alert.firedAtMs = timeMs;
      }
      out.add(
          new Value.Sample(
              seriesLabels(alert, ALERTS).set("alertstate", alert.state.apiName()).build(),
              timeMs,
              1));
      out.add(
          new Value.Sample(
              seriesLabels(alert, ALERTS_FOR_STATE).build(),
              timeMs,
              Math.floorDiv(alert.activeAtMs, 1000)));
    }
    if (limit > 0 && activeCount > limit) {
      active.clear();
      throw new IllegalStateException(
          "exceeded limit of " + limit + " with " + activeCount + " alerts");
    }
    return out;
  }

  /**
   * The rule's labels as written, overlaid with the alert's (templated) labels, as Prometheus
   * builds them.
   */
  private LabelSet.Builder seriesLabels(Alert alert, String metric) {
    LabelSet.Builder labels = LabelSet.builder();
    spec.labels().forEach(labels::set);
    alert.labels.toMap().forEach(labels::set);
    return labels.set(LabelSet.METRIC_NAME, metric);
  }

  /**
   * The alerts due to be sent at {@code timeMs}: firing ones not sent within the resend delay and
   * resolved ones not yet sent since they resolved. Each is then valid for four times the larger of
   * the resend delay and the group interval, so two missed evaluations or sends do not resolve it.
   */
  synchronized List<OutgoingAlert> alertsToSend(long timeMs, long resendDelayMs, long intervalMs) {
    List<OutgoingAlert> out = new ArrayList<>();
    for (Alert alert : active.values()) {
      if (!alert.needsSending(timeMs, resendDelayMs)) {
        continue;
      }
      alert.lastSentAtMs = timeMs;
      alert.validUntilMs = timeMs + 4 * Math.max(resendDelayMs, intervalMs);
      long endsAt = alert.resolvedAtMs != UNSET ? alert.resolvedAtMs : alert.validUntilMs;
      out.add(
          new OutgoingAlert(
              alert.labels.toMap(),
              alert.annotations,
              Instant.ofEpochMilli(alert.firedAtMs),
              Instant.ofEpochMilli(endsAt),
              generatorUrl()));
    }
    return out;
  }

  /**
   * Prometheus's link to the expression's table view: {@code EXTERNAL/graph?g0.expr=...&g0.tab=1}.
   */
  String generatorUrl() {
    String escaped =
        URLEncoder.encode(spec.query(), StandardCharsets.UTF_8)
            .replace("*", "%2A")
            .replace("%7E", "~");
    return externalUrl + "/graph?g0.expr=" + escaped + "&g0.tab=1";
  }

  @Override
  public void evaluated(long startedMs, long durationNanos, String error) {
    status.set(startedMs, durationNanos, error);
  }

  /** Pending and firing alerts, as {@code /api/v1/alerts} lists them. */
  synchronized List<AlertSnapshot> activeAlerts() {
    List<AlertSnapshot> out = new ArrayList<>();
    for (Alert alert : active.values()) {
      if (alert.state != AlertState.INACTIVE) {
        out.add(
            new AlertSnapshot(
                alert.labels.toMap(),
                alert.annotations,
                alert.state.apiName(),
                Optional.of(Instant.ofEpochMilli(alert.activeAtMs)),
                alert.keepFiringSinceMs == UNSET
                    ? Optional.empty()
                    : Optional.of(Instant.ofEpochMilli(alert.keepFiringSinceMs)),
                GoFloat.shortestE(alert.value)));
      }
    }
    return out;
  }

  /** The most severe state among the rule's alerts. */
  synchronized AlertState state() {
    AlertState max = AlertState.INACTIVE;
    for (Alert alert : active.values()) {
      if (alert.state.compareTo(max) > 0) {
        max = alert.state;
      }
    }
    return max;
  }

  @Override
  public RuleSnapshot snapshot() {
    return new RuleSnapshot.Alerting(
        state().apiName(),
        spec.name(),
        spec.query(),
        spec.forMs() / 1000.0,
        spec.keepFiringForMs() / 1000.0,
        spec.labels(),
        spec.annotations(),
        activeAlerts(),
        status.health().apiName(),
        status.lastError(),
        status.lastEvaluation(),
        status.evaluationSeconds());
  }
}
