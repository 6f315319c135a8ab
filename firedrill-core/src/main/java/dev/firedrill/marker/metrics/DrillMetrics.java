package dev.firedrill.marker.metrics;

import dev.firedrill.engine.Milestone;
import dev.firedrill.engine.Phase;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.marker.MarkerTarget;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.MetricType;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * One drill's metrics in a registry of their own (never the default registry): {@code
 * chaos_experiment_active}, the phase, each reading, the verdict and the start time, as the
 * milestones set them.
 */
public final class DrillMetrics {

  public static final String ACTIVE = "chaos_experiment_active";

  /** What a milestone changed. */
  public enum Change {
    NONE,
    OTHER,
    ACTIVE
  }

  private record FaultLabels(String target, String fault) {}

  private final String experiment;
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Gauge active;
  private final Gauge phase;
  private final Gauge reading;
  private final Gauge verdict;
  private final Gauge start;
  private final Map<Integer, FaultLabels> faults = new HashMap<>();
  private final Map<Integer, Boolean> on = new HashMap<>();
  private boolean everOn;

  /**
   * {@code onActiveRead} runs whenever a scrape reads {@code chaos_experiment_active}, on the
   * scraping thread.
   */
  public DrillMetrics(String experiment, Runnable onActiveRead) {
    this.experiment = experiment;
    active =
        Gauge.builder()
            .name(ACTIVE)
            .help("1 while firedrill has the fault applied to the target, 0 after its rollback")
            .labelNames("experiment", "target", "fault")
            .build();
    registry.register(new ReadHook(active, onActiveRead));
    phase =
        Gauge.builder()
            .name("chaos_experiment_phase")
            .help("1 for the drill's current phase, 0 for the others")
            .labelNames("experiment", "phase")
            .register(registry);
    reading =
        Gauge.builder()
            .name("chaos_experiment_reading")
            .help(
                "The last value of each SLI and guard the drill measured; NaN when the query had no data or failed")
            .labelNames("experiment", "name")
            .register(registry);
    verdict =
        Gauge.builder()
            .name("chaos_experiment_verdict")
            .help("1 for the drill's system verdict, set when the drill ends")
            .labelNames("experiment", "verdict")
            .register(registry);
    start =
        Gauge.builder()
            .name("chaos_experiment_start_timestamp_seconds")
            .help("When the drill started, in seconds since the epoch")
            .labelNames("experiment")
            .register(registry);
  }

  public PrometheusRegistry registry() {
    return registry;
  }

  public synchronized Change apply(Milestone milestone) {
    if (milestone instanceof Milestone.DrillStarted started) {
      start.labelValues(experiment).set(started.at().toEpochMilli() / 1000.0);
      for (Phase p : Phase.values()) {
        phase.labelValues(experiment, p.text()).set(0);
      }
      return Change.OTHER;
    }
    if (milestone instanceof Milestone.PhaseStarted started) {
      enter(started.phase());
      return Change.OTHER;
    }
    if (milestone instanceof Milestone.FaultInjected injected) {
      return injected.applied()
          ? fault(
              injected.index(),
              MarkerTarget.of(injected.spec(), injected.selected()),
              injected.spec(),
              true)
          : Change.NONE;
    }
    if (milestone instanceof Milestone.FaultReverted reverted) {
      // A failed revert leaves the fault on: the gauge says so, it does not pretend.
      // The series the injection set to 1, with the pods it named, is the one that goes to 0.
      FaultLabels injected = faults.get(reverted.index());
      String target = injected == null ? reverted.spec().targetName() : injected.target();
      return fault(reverted.index(), target, reverted.spec(), !reverted.reverted());
    }
    if (milestone instanceof Milestone.Measured measured) {
      measured
          .measurement()
          .readings()
          .forEach(
              r -> reading.labelValues(experiment, r.name()).set(r.value().orElse(Double.NaN)));
      return Change.OTHER;
    }
    if (milestone instanceof Milestone.DrillFinished finished) {
      enter(Phase.VERDICT);
      verdict.labelValues(experiment, finished.verdict().text()).set(1);
      return Change.OTHER;
    }
    return Change.NONE;
  }

  /** Some fault was set to 1 at some point. */
  public synchronized boolean everOn() {
    return everOn;
  }

  /** No fault is on now. */
  public synchronized boolean allOff() {
    return !on.containsValue(true);
  }

  /** The registry as the Pushgateway takes it, and whether it carries every fault's 0. */
  public record Snapshot(byte[] text, boolean zeroAfterOne) {}

  public synchronized Snapshot snapshot() {
    return new Snapshot(text(), everOn && allOff());
  }

  /** The registry in the Prometheus text format (0.0.4). */
  public synchronized byte[] text() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      PrometheusTextFormatWriter.create().write(out, registry.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private void enter(Phase current) {
    for (Phase p : Phase.values()) {
      phase.labelValues(experiment, p.text()).set(p == current ? 1 : 0);
    }
  }

  private Change fault(int index, String target, FaultSpec spec, boolean isOn) {
    FaultLabels labels = new FaultLabels(target, spec.kind());
    faults.put(index, labels);
    on.put(index, isOn);
    everOn |= isOn;
    // Two faults of one kind on one target share a series: it reads 1 while either is on.
    boolean any =
        faults.entrySet().stream()
            .anyMatch(e -> e.getValue().equals(labels) && on.getOrDefault(e.getKey(), false));
    active.labelValues(experiment, labels.target(), labels.fault()).set(any ? 1 : 0);
    return Change.ACTIVE;
  }

  /** The active gauge, telling the scrape endpoint each time a scrape reads it. */
  private record ReadHook(Gauge gauge, Runnable onRead) implements Collector {
    @Override
    public MetricSnapshot collect() {
      MetricSnapshot snapshot = gauge.collect();
      onRead.run();
      return snapshot;
    }

    @Override
    public String getPrometheusName() {
      return gauge.getPrometheusName();
    }

    @Override
    public MetricType getMetricType() {
      return gauge.getMetricType();
    }

    @Override
    public Set<String> getLabelNames() {
      return gauge.getLabelNames();
    }

    @Override
    public MetricMetadata getMetadata() {
      return gauge.getMetadata();
    }
  }
}
