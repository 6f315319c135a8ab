package dev.firedrill.experiment;

import java.util.Objects;

/** One drill: the steady state to keep, the faults to inject, the limits it must stay inside. */
public record Experiment(
    String id,
    String title,
    String owner,
    PrometheusSource prometheus,
    SteadyState steadyState,
    Hypothesis hypothesis,
    Method method,
    Abort abort,
    BlastRadius blastRadius) {

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
  }
}
