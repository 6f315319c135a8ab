package dev.firedrill.alerting;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An alert as Prometheus or Grafana's Prometheus-compatible API ({@code
 * /api/prometheus/grafana/api/v1/alerts}) reports it.
 *
 * <p>Prometheus lists {@code pending} and {@code firing} alerts, both with {@code activeAt} the
 * start of {@code for}. Grafana lists every instance, {@code Normal} included, in capitalised
 * states ({@code Normal}, {@code Pending}, {@code Alerting}, {@code NoData}, {@code Error}, {@code
 * Recovering}), possibly with a {@code " (reason)"} suffix such as {@code "Normal
 * (MissingSeries)"}; its {@code activeAt} is when the instance entered its current state, so for
 * {@code Alerting} it already is the firing time.
 */
public record PromAlert(
    Map<String, String> labels,
    Map<String, String> annotations,
    String state,
    Optional<Instant> activeAt) {

  public PromAlert {
    labels = Map.copyOf(labels);
    annotations = Map.copyOf(annotations);
    activeAt = activeAt == null ? Optional.empty() : activeAt;
  }

  /** The state without Grafana's {@code " (reason)"} suffix, in lower case. */
  private String base() {
    int reason = state.indexOf(" (");
    return (reason < 0 ? state : state.substring(0, reason)).trim().toLowerCase(Locale.ROOT);
  }

  /** Grafana writes its states capitalised; Prometheus in lower case. */
  public boolean grafana() {
    return !state.isEmpty() && Character.isUpperCase(state.charAt(0));
  }

  /**
   * Firing as Prometheus says it ({@code firing}) or Grafana ({@code Alerting}; {@code Recovering}
   * still notifies as firing until the rule's keep-firing time passes).
   */
  public boolean firing() {
    String base = base();
    return base.equals("firing") || base.equals("alerting") || base.equals("recovering");
  }

  /**
   * Pending or firing. Grafana's {@code Normal} (any reason) and Prometheus's {@code inactive} are
   * not active. {@code NoData} and {@code Error} are listed by Grafana only while the rule's
   * no-data or error state says so; an instance that alerts on them is listed as {@code Alerting
   * (NoData)} or {@code Alerting (Error)}, so a bare {@code NoData} or {@code Error} is not active.
   */
  public boolean active() {
    String base = base();
    return firing() || base.equals("pending");
  }

  /**
   * When it started firing: Grafana's {@code activeAt} as it is; Prometheus's {@code activeAt} plus
   * the rule's {@code for} (Prometheus reports no firing time).
   */
  public Optional<Instant> firingSince(Duration forDuration) {
    if (!firing()) {
      return Optional.empty();
    }
    return grafana() ? activeAt : activeAt.map(at -> at.plus(forDuration));
  }
}
