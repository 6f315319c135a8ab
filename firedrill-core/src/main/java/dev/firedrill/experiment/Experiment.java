package dev.firedrill.experiment;

import java.util.Objects;
import java.util.Optional;

/**
 * One drill: the steady state to keep, the faults to inject, the limits it must stay inside, and
 * the alerts the faults should fire.
 */
public record Experiment(
    String id,
    String title,
    String owner,
    PrometheusSource prometheus,
    SteadyState steadyState,
    Hypothesis hypothesis,
    Method method,
    Abort abort,
    BlastRadius blastRadius,
    Optional<AlertmanagerSource> alertmanager,
    Optional<ReceiverSpec> receiver,
    Markers markers) {

  public Experiment {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(prometheus, "prometheus");
    Objects.requireNonNull(steadyState, "steadyState");
    Objects.requireNonNull(hypothesis, "hypothesis");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(abort, "abort");
    Objects.requireNonNull(blastRadius, "blastRadius");
    owner = owner == null ? "" : owner;
    alertmanager = alertmanager == null ? Optional.empty() : alertmanager;
    receiver = receiver == null ? Optional.empty() : receiver;
    markers = markers == null ? Markers.none() : markers;
  }

  /** An experiment that marks itself only in its journal, log and spans. */
  public Experiment(String id, String title, String owner, PrometheusSource prometheus, SteadyState steadyState,
      Hypothesis hypothesis, Method method, Abort abort, BlastRadius blastRadius,
      Optional<AlertmanagerSource> alertmanager, Optional<ReceiverSpec> receiver) {
    this(id, title, owner, prometheus, steadyState, hypothesis, method, abort, blastRadius, alertmanager, receiver,
        Markers.none());
  }

  /** An experiment that watches no alerts through Alertmanager or a webhook. */
  public Experiment(String id, String title, String owner, PrometheusSource prometheus, SteadyState steadyState,
      Hypothesis hypothesis, Method method, Abort abort, BlastRadius blastRadius) {
    this(id, title, owner, prometheus, steadyState, hypothesis, method, abort, blastRadius, Optional.empty(),
        Optional.empty(), Markers.none());
  }
}
