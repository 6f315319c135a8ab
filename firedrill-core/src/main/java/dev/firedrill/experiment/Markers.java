package dev.firedrill.experiment;

import java.util.Optional;

/**
 * Where the drill marks itself besides the journal, its log and its spans (always written): a
 * Grafana to annotate, and firedrill's own metrics endpoint or a Pushgateway for {@code
 * chaos_experiment_active}.
 */
public record Markers(Optional<GrafanaTarget> grafana, Optional<MetricsExport> metrics) {

  public Markers {
    grafana = grafana == null ? Optional.empty() : grafana;
    metrics = metrics == null ? Optional.empty() : metrics;
  }

  public static Markers none() {
    return new Markers(Optional.empty(), Optional.empty());
  }
}
