package dev.firedrill.kubernetes.testing;

import dev.firedrill.engine.Drill;
import dev.firedrill.engine.DrillObserver;
import dev.firedrill.engine.DrillPorts;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.FaultProvider;
import dev.firedrill.engine.Measurer;
import dev.firedrill.experiment.Abort;
import dev.firedrill.experiment.AbortRule;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.Hypothesis;
import dev.firedrill.experiment.Method;
import dev.firedrill.experiment.Missing;
import dev.firedrill.experiment.PrometheusSource;
import dev.firedrill.experiment.Sli;
import dev.firedrill.experiment.SteadyState;
import dev.firedrill.experiment.TokenSource;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultException;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import dev.firedrill.time.Clock;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * Whole drills through the real engine against a {@link TestCluster}. The SLI is the number of
 * Ready pods labelled {@code app=web} in {@code shop}, read from the cluster itself, so the verdict
 * follows what the controllers did.
 */
public final class ClusterDrills {

  private static final String QUERY = "sum(kube_pod_status_ready{namespace=\"shop\"})";

  private ClusterDrills() {}

  /** One fault, at least {@code minReady} Ready web pods, the method's and recovery's times. */
  public static Experiment experiment(
      String id,
      FaultSpec spec,
      BlastRadius blast,
      double minReady,
      Duration method,
      Duration recovery) {
    return Experiment.builder(id)
        .title("A fault on the web pods of shop")
        .owner("sre")
        .prometheus(
            new PrometheusSource(URI.create("http://127.0.0.1:9090"), null, TokenSource.none()))
        .steadyState(
            new SteadyState(
                Duration.ofMillis(200),
                List.of(
                    new Sli(
                        "ready_pods",
                        QUERY,
                        OptionalDouble.of(minReady),
                        OptionalDouble.empty(),
                        Missing.FAIL))))
        .hypothesis(new Hypothesis("the web pods keep serving", recovery))
        .method(new Method(method, List.of(spec)))
        .abort(
            new Abort(
                List.of(new AbortRule("ready_pods", AbortRule.Direction.BELOW, 1, 2)),
                Optional.empty(),
                Abort.DEFAULT_PROBE_ERRORS,
                Optional.empty()))
        .blastRadius(blast)
        .build();
  }

  /** Runs {@code experiment}, its faults made by {@code create}; cleanup is not this harness's. */
  public static DrillResult run(
      TestCluster cluster, Experiment experiment, Function<FaultSpec, Fault> create) {
    double min = experiment.steadyState().slis().get(0).min().getAsDouble();
    Measurer readyPods =
        targets -> {
          double ready =
              cluster
                  .client()
                  .pods()
                  .inNamespace("shop")
                  .withLabel("app", "web")
                  .list()
                  .getItems()
                  .stream()
                  .filter(
                      p ->
                          p.getStatus() != null
                              && p.getStatus().getConditions().stream()
                                  .anyMatch(
                                      c ->
                                          "Ready".equals(c.getType())
                                              && "True".equals(c.getStatus())))
                  .count();
          return new Measurement(
              Clock.system().now(),
              List.of(Reading.of("ready_pods", ready, ready >= min, ">= " + (int) min)),
              Optional.empty());
        };
    FaultProvider faults =
        new FaultProvider() {
          @Override
          public Fault create(FaultSpec spec) {
            return create.apply(spec);
          }

          @Override
          public Fault restore(FaultSpec spec, Map<String, Object> state) throws FaultException {
            throw new FaultException("a drill does not restore faults");
          }
        };
    return new Drill(
            experiment,
            experiment.id() + ".yaml",
            DrillPorts.builder(readyPods, faults, Clock.system())
                .observer(DrillObserver.noop())
                .build())
        .run();
  }
}
