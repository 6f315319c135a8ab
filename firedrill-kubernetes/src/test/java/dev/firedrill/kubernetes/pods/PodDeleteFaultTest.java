package dev.firedrill.kubernetes.pods;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.fault.FaultRefusedException;
import dev.firedrill.fault.TtlEnforcer;
import dev.firedrill.fault.Verification;
import dev.firedrill.kubernetes.select.Chooser;
import dev.firedrill.kubernetes.select.SelectionMode;
import dev.firedrill.kubernetes.testing.TestCluster;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PodDeleteFaultTest {

  @TempDir Path dir;
  private TestCluster cluster;
  private Path kubeconfig;

  @BeforeEach
  void start() throws Exception {
    cluster = new TestCluster(Duration.ofMillis(200), Duration.ofMillis(200));
    kubeconfig = cluster.kubeconfig(dir);
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  private PodDeleteFault fault(
      PodDeleteSpec spec, Double maxPercent, Integer maxPods, Duration recovery, long seed) {
    return new PodDeleteFault(
        spec,
        Drills.context(
            kubeconfig,
            Drills.blast(List.of("shop"), maxPercent, maxPods),
            Duration.ofSeconds(1),
            recovery),
        seed,
        List.of());
  }

  private List<String> podNames() {
    return cluster.client().pods().inNamespace("shop").list().getItems().stream()
        .map(p -> p.getMetadata().getName())
        .sorted()
        .toList();
  }

  @Test
  void heldWhenTheReplacementBecomesReady() throws Exception {
    cluster.deployment("shop", "web", 3, Map.of("app", "web"));
    PodDeleteFault fault =
        fault(
            Drills.spec(Drills.WEB, SelectionMode.ONE, 0, PodDeleteSpec.Via.DELETE, null),
            0.34,
            null,
            Duration.ofSeconds(5),
            42);
    String victim = new Chooser(42).pick(List.of("web-0", "web-1", "web-2"), 1, s -> s).get(0);
    assertThat(fault.plan())
        .startsWith(
            "select one: 1 of 3 running pods matching app=web in shop; the blast radius allows 1 (max_percent 34%, rounded down)",
            "candidates: web-0, web-1, web-2; chosen at injection with seed 42 (kept in the journal)",
            "cluster: kubeconfig " + kubeconfig + ", context (current)",
            "via delete: a plain DELETE, which PodDisruptionBudgets do not stop",
            "grace period: each pod's own, so preStop hooks run (Chaos Mesh's pod-kill defaults to 0, which skips them)");
    fault.inject();
    assertThat(fault.selected()).containsExactly(victim);
    assertThat(podNames()).doesNotContain(victim);
    assertThat(fault.state()).containsEntry("seed", 42L);
    assertThat(fault.ttlEnforcer()).isEqualTo(TtlEnforcer.NONE);
    fault.revert();
    Verification verification = fault.verify();
    assertThat(verification.reverted()).as(verification.detail()).isTrue();
    assertThat(verification.detail())
        .isEqualTo(
            "every victim is gone ("
                + victim
                + "); deployment/web rolled out: 3 of 3 updated, ready and available (round 1: deleted "
                + victim
                + ")");
  }

  /**
   * A SIGKILL inside the injection: the journal holds the state recorded before it (the kill matrix
   * found there was none, so cleanup asked for a human, exit 7), and cleanup's fault rebuilt from
   * it claims no more than it knows.
   */
  @Test
  void theStateJournaledBeforeTheInjectionRebuildsAFaultThatClaimsNothingItCannotKnow()
      throws Exception {
    cluster.deployment("shop", "web", 3, Map.of("app", "web"));
    PodDeleteSpec spec =
        Drills.spec(Drills.WEB, SelectionMode.ONE, 0, PodDeleteSpec.Via.DELETE, null);
    PodDeleteFault fault = fault(spec, 0.34, null, Duration.ofSeconds(5), 42);
    Map<String, Object> before = fault.stateBeforeInjection().orElseThrow();
    assertThat(before)
        .containsEntry("seed", 42L)
        .containsEntry("victims", List.of())
        .containsEntry("injecting", true);
    fault.inject(); // the kill comes before the journal learns the victim

    PodDeleteFault rebuilt =
        PodDeleteFault.restore(
            spec,
            Drills.context(
                kubeconfig,
                Drills.blast(List.of("shop"), 0.34, null),
                Duration.ofSeconds(1),
                Duration.ofSeconds(5)),
            before);
    rebuilt.revert();
    Verification verification = rebuilt.verify();

    assertThat(verification.reverted()).as(verification.detail()).isTrue();
    assertThat(verification.detail())
        .isEqualTo(
            "no victim was journaled (firedrill stopped while injecting it); a deleted pod leaves"
                + " nothing to undo, and its owner replaces it");
    assertThat(fault.state()).doesNotContainKey("injecting");
  }

  @Test
  void recoveryFailsWhenTheReplacementNeverBecomesReady() throws Exception {
    cluster.deployment("shop", "web", 3, Map.of("app", "web"));
    cluster.neverMakeReplacementsReady();
    PodDeleteFault fault =
        fault(
            Drills.spec(Drills.WEB, SelectionMode.ONE, 0, PodDeleteSpec.Via.DELETE, null),
            0.34,
            null,
            Duration.ofMillis(800),
            1);
    fault.inject();
    fault.revert();
    Verification verification = fault.verify();
    assertThat(verification.reverted()).as("nothing is left to undo").isTrue();
    assertThat(verification.recovered()).isFalse();
    assertThat(verification.detail())
        .isEqualTo(
            "not recovered within 800ms: 2 of 3 pods matching app=web in shop Ready again; check with:"
                + " kubectl -n shop rollout status deployment/web --timeout=1s");
    assertThat(fault.manualRevertCommand())
        .isEqualTo("kubectl -n shop rollout status deployment/web --timeout=1s");
    assertThat(cluster.replacements()).isEqualTo(1);
  }

  @Test
  void theLiveRefusalsNameBothNumbers() throws Exception {
    cluster.deployment("shop", "web", 3, Map.of("app", "web"));
    assertThatThrownBy(
            () ->
                fault(
                        Drills.spec(
                            Drills.WEB,
                            SelectionMode.FIXED_PERCENT,
                            34,
                            PodDeleteSpec.Via.DELETE,
                            null),
                        0.34,
                        null,
                        Duration.ofSeconds(1),
                        1)
                    .plan())
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "pod-delete: fixed-percent 34% picks up to 2 of 3 running pods matching app=web in shop; the blast radius allows 1 (max_percent 34%, rounded down)");
    assertThatThrownBy(
            () ->
                fault(
                        Drills.spec(
                            Drills.WEB,
                            SelectionMode.FIXED_PERCENT,
                            50,
                            PodDeleteSpec.Via.DELETE,
                            null),
                        null,
                        1,
                        Duration.ofSeconds(1),
                        1)
                    .plan())
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "pod-delete: fixed-percent 50% picks up to 2 of 3 running pods matching app=web in shop; the blast radius allows 1 (max_pods 1, rounded down)");
    assertThat(podNames()).containsExactly("web-0", "web-1", "web-2");
  }

  @Test
  void randomMaxPercentThatDrawsNoneIsRefusedBeforeAnythingRuns() throws Exception {
    cluster.deployment("shop", "web", 3, Map.of("app", "web"));
    long seed = 0;
    while (new Chooser(seed).percentage(30) != 0) {
      seed++;
    }
    PodDeleteFault fault =
        fault(
            Drills.spec(
                Drills.WEB, SelectionMode.RANDOM_MAX_PERCENT, 30, PodDeleteSpec.Via.DELETE, null),
            null,
            null,
            Duration.ofSeconds(1),
            seed);
    assertThatThrownBy(fault::plan)
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "pod-delete: random-max-percent 30% drew no pod of 3 matching app=web in shop; a fault that hits nothing proves nothing");
    assertThatThrownBy(fault::inject).isInstanceOf(FaultRefusedException.class);
    assertThat(podNames()).containsExactly("web-0", "web-1", "web-2");
  }

  @Test
  void anEvictionAPodDisruptionBudgetRefusesSkipsThatPod() throws Exception {
    cluster.deployment("shop", "web", 4, Map.of("app", "web"));
    List<String> chosen =
        new Chooser(5).pick(List.of("web-0", "web-1", "web-2", "web-3"), 2, s -> s);
    cluster.protect(chosen.get(0));
    PodDeleteFault fault =
        fault(
            Drills.spec(Drills.WEB, SelectionMode.FIXED, 2, PodDeleteSpec.Via.EVICTION, null),
            null,
            2,
            Duration.ofSeconds(5),
            5);
    fault.inject();
    assertThat(fault.selected()).containsExactly(chosen.get(1));
    assertThat(podNames()).contains(chosen.get(0)).doesNotContain(chosen.get(1));
    assertThat(fault.state().get("events"))
        .isEqualTo(
            List.of(
                "round 1: skipped "
                    + chosen.get(0)
                    + ": the eviction was refused (429), a PodDisruptionBudget protects it",
                "round 1: evicted " + chosen.get(1)));
    fault.revert();
    assertThat(fault.verify().reverted()).isTrue();
  }

  @Test
  void intervalRoundsKeepTheBlastRadiusForTheWholeRun() throws Exception {
    cluster.deployment("shop", "web", 3, Map.of("app", "web"));
    PodDeleteFault fault =
        new PodDeleteFault(
            Drills.spec(
                Drills.WEB, SelectionMode.ONE, 0, PodDeleteSpec.Via.DELETE, Duration.ofMillis(150)),
            Drills.context(
                kubeconfig,
                Drills.blast(List.of("shop"), 0.34, null),
                Duration.ofMillis(1500),
                Duration.ofSeconds(5)),
            3,
            List.of());
    fault.inject();
    int maxDisrupted = 0;
    long end = System.nanoTime() + Duration.ofMillis(1600).toNanos();
    while (System.nanoTime() < end) {
      List<Pod> pods = cluster.client().pods().inNamespace("shop").list().getItems();
      long healthy = pods.stream().filter(Pods::ready).count();
      maxDisrupted = (int) Math.max(maxDisrupted, 3 - healthy);
      Thread.sleep(20);
    }
    fault.revert();
    @SuppressWarnings("unchecked")
    List<String> events = (List<String>) fault.state().get("events");
    assertThat(events.get(0)).startsWith("round 1: deleted ");
    assertThat(events)
        .contains(
            "round 2: skipped, 1 of 3 pods already disrupted (not ready, terminating or not replaced) and the blast radius allows 1");
    assertThat(events.stream().filter(e -> e.contains(": deleted ")).count())
        .isGreaterThanOrEqualTo(2);
    assertThat(fault.selected()).hasSizeGreaterThanOrEqualTo(2);
    assertThat(maxDisrupted).isEqualTo(1);
    assertThat(fault.verify().reverted()).isTrue();
  }
}
