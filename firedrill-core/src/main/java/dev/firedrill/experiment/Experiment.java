package dev.firedrill.experiment;

import java.util.Objects;
import java.util.Optional;

/**
 * One drill: the steady state to keep, the faults to inject, the limits it must stay inside, and
 * the alerts the faults should fire. No part is ever null. Files come in through {@link
 * ExperimentLoader}, which checks them; code builds one with {@link #builder}.
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
    Markers markers,
    Optional<String> kubernetesContext) {

  public Experiment {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(prometheus, "prometheus");
    Objects.requireNonNull(steadyState, "steadyState");
    Objects.requireNonNull(hypothesis, "hypothesis");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(abort, "abort");
    Objects.requireNonNull(blastRadius, "blastRadius");
    Objects.requireNonNull(alertmanager, "alertmanager");
    Objects.requireNonNull(receiver, "receiver");
    Objects.requireNonNull(markers, "markers");
    Objects.requireNonNull(kubernetesContext, "kubernetesContext");
  }

  /**
   * An experiment for code (tests, tools) to fill in. Where to measure, the steady state, the
   * method, the abort conditions and the blast radius have no default, because a drill is defined
   * by them; the rest default to what a file without them means. It checks nothing beyond that: the
   * loader is where input is validated.
   */
  public static Builder builder(String id) {
    return new Builder(id);
  }

  /**
   * Fills an {@link Experiment} part by part; {@link #build} fails naming the first required part
   * not given.
   */
  public static final class Builder {
    private final String id;
    private String title;
    private String owner = "";
    private PrometheusSource prometheus;
    private SteadyState steadyState;
    private Hypothesis hypothesis = new Hypothesis("", Hypothesis.DEFAULT_RECOVERY);
    private Method method;
    private Abort abort;
    private BlastRadius blastRadius;
    private Optional<AlertmanagerSource> alertmanager = Optional.empty();
    private Optional<ReceiverSpec> receiver = Optional.empty();
    private Markers markers = Markers.none();
    private Optional<String> kubernetesContext = Optional.empty();

    private Builder(String id) {
      this.id = Objects.requireNonNull(id, "id");
    }

    /** Defaults to the id. */
    public Builder title(String title) {
      this.title = title;
      return this;
    }

    /** Defaults to none (empty). */
    public Builder owner(String owner) {
      this.owner = owner;
      return this;
    }

    public Builder prometheus(PrometheusSource prometheus) {
      this.prometheus = prometheus;
      return this;
    }

    public Builder steadyState(SteadyState steadyState) {
      this.steadyState = steadyState;
      return this;
    }

    /** Defaults to no description, {@link Hypothesis#DEFAULT_RECOVERY} and no alerts. */
    public Builder hypothesis(Hypothesis hypothesis) {
      this.hypothesis = hypothesis;
      return this;
    }

    public Builder method(Method method) {
      this.method = method;
      return this;
    }

    public Builder abort(Abort abort) {
      this.abort = abort;
      return this;
    }

    public Builder blastRadius(BlastRadius blastRadius) {
      this.blastRadius = blastRadius;
      return this;
    }

    /** Defaults to none: detection reads no Alertmanager. */
    public Builder alertmanager(AlertmanagerSource alertmanager) {
      this.alertmanager = Optional.of(alertmanager);
      return this;
    }

    /** Defaults to none: no webhook receiver is started. */
    public Builder receiver(ReceiverSpec receiver) {
      this.receiver = Optional.of(receiver);
      return this;
    }

    /** Defaults to {@link Markers#none()}: the journal, log and spans only. */
    public Builder markers(Markers markers) {
      this.markers = markers;
      return this;
    }

    /** Defaults to the kubeconfig's current context (or the pod's service account). */
    public Builder kubernetesContext(String context) {
      this.kubernetesContext = Optional.of(context);
      return this;
    }

    public Experiment build() {
      return new Experiment(
          id,
          title == null ? id : title,
          owner,
          prometheus,
          steadyState,
          hypothesis,
          method,
          abort,
          blastRadius,
          alertmanager,
          receiver,
          markers,
          kubernetesContext);
    }
  }
}
