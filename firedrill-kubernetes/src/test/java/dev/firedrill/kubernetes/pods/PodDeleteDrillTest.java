package dev.firedrill.kubernetes.pods;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.engine.Drill;
import dev.firedrill.engine.DrillObserver;
import dev.firedrill.engine.DrillPorts;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.FaultProvider;
import dev.firedrill.engine.Measurer;
import dev.firedrill.engine.Verdict;
import dev.firedrill.experiment.Abort;
import dev.firedrill.experiment.AbortRule;
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
import dev.firedrill.kubernetes.select.SelectionMode;
import dev.firedrill.kubernetes.testing.TestCluster;
import dev.firedrill.time.Clock;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole drills with pod-delete against the mock cluster and its reconciler. The SLI is the number
 * of Ready web pods, read from the cluster itself, so the verdict follows what the controller did.
 */
class PodDeleteDrillTest {

  private static final String QUERY = "sum(kube_pod_status_ready{namespace=\"shop\"})";

  @TempDir Path dir;

  private static Experiment experiment(double minReady, Duration recovery, FaultSpec spec) {
    return Experiment.builder("web-pod-delete")
        .title("Deleting one of three web pods")
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
        .hypothesis(new Hypothesis("the Deployment replaces the pod", recovery))
        .method(new Method(Duration.ofMillis(600), List.of(spec)))
        .abort(
            new Abort(
                List.of(new AbortRule("ready_pods", AbortRule.Direction.BELOW, 1, 2)),
                Optional.empty(),
                Abort.DEFAULT_PROBE_ERRORS,
                Optional.empty()))
        .blastRadius(Drills.blast(List.of("shop"), 0.34, null))
        .build();
  }

  private static DrillResult run(TestCluster cluster, Experiment experiment, Path kubeconfig) {
    Measurer readyPods =
        () -> {
          double ready =
              cluster
                  .client()
                  .pods()
                  .inNamespace("shop")
                  .withLabel("app", "web")
                  .list()
                  .getItems()
                  .stream()
                  .filter(Pods::ready)
                  .count();
          double min = experiment.steadyState().slis().get(0).min().getAsDouble();
          return new Measurement(
              Clock.system().now(),
              List.of(Reading.of("ready_pods", ready, ready >= min, ">= " + (int) min)),
              Optional.empty());
        };
    FaultProvider faults =
        new FaultProvider() {
          @Override
          public Fault create(FaultSpec spec) {
            return new PodDeleteFault(
                (PodDeleteSpec) spec,
                Drills.context(
                    kubeconfig,
                    experiment.blastRadius(),
                    experiment.method().duration(),
                    experiment.hypothesis().recovery()),
                7,
                List.of());
          }

          @Override
          public Fault restore(FaultSpec spec, Map<String, Object> state) throws FaultException {
            throw new FaultException("not in this test");
          }
        };
    return new Drill(
            experiment,
            "pod-delete.yaml",
            DrillPorts.builder(readyPods, faults, Clock.system())
                .observer(DrillObserver.noop())
                .build())
        .run();
  }

  private static PodDeleteSpec one() {
    return Drills.spec(Drills.WEB, SelectionMode.ONE, 0, PodDeleteSpec.Via.DELETE, null);
  }

  @Test
  void heldWithTheReplacementReady() throws Exception {
    try (TestCluster cluster = new TestCluster(Duration.ofMillis(100), Duration.ofMillis(100))) {
      cluster.deployment("shop", "web", 3, Map.of("app", "web"));
      DrillResult result =
          run(cluster, experiment(2, Duration.ofSeconds(5), one()), cluster.kubeconfig(dir));
      assertThat(result.verdict()).as(result.reason()).isEqualTo(Verdict.HELD);
      assertThat(result.rollbackOk()).isTrue();
      assertThat(result.manualCommands()).isEmpty();
    }
  }

  @Test
  void aReplacementThatNeverBecomesReadyFailsTheRecoveryWithTheRolloutCommand() throws Exception {
    try (TestCluster cluster = new TestCluster(Duration.ofMillis(100), Duration.ofMillis(100))) {
      cluster.deployment("shop", "web", 3, Map.of("app", "web"));
      cluster.neverMakeReplacementsReady();
      DrillResult result =
          run(cluster, experiment(3, Duration.ofMillis(600), one()), cluster.kubeconfig(dir));
      assertThat(result.verdict()).as(result.reason()).isEqualTo(Verdict.DEVIATED);
      assertThat(result.rollbackOk()).isFalse();
      assertThat(result.manualCommands())
          .containsExactly("kubectl -n shop rollout status deployment/web --timeout=1s");
    }
  }
}
