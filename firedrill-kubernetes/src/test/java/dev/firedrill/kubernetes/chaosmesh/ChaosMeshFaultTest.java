package dev.firedrill.kubernetes.chaosmesh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.FaultRefusedException;
import dev.firedrill.fault.TtlEnforcer;
import dev.firedrill.fault.Verification;
import dev.firedrill.kubernetes.testing.ChaosMeshShop;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The chaos-mesh fault against the mock API server with a Chaos Mesh controller beside it. */
class ChaosMeshFaultTest {

  @TempDir Path dir;
  @RegisterExtension final ChaosMeshShop shop = new ChaosMeshShop(Duration.ofMillis(200));

  private List<GenericKubernetesResource> networkChaos() {
    return shop.chaosMesh().objects("NetworkChaos", "shop");
  }

  @Test
  void injectedAndRevertedCleanly() throws Exception {
    ChaosMeshFault fault =
        ChaosDrills.fault(shop.kubeconfig(), ChaosDrills.networkChaos("60s"), 0.34, null);
    assertThat(fault.plan())
        .containsExactly(
            "create NetworkChaos shop/firedrill-exp-1-0 (chaos-mesh.org/v1alpha1, action delay)"
                + " labelled firedrill.dev/experiment=exp-1, its spec as written",
            "Chaos Mesh selects one: up to 1 of 3 running pods matching app=web in shop; the blast"
                + " radius allows 1 (max_percent 34%, rounded down)",
            "cluster: kubeconfig " + shop.kubeconfig() + ", context (current)",
            "wait up to 3s for Selected and AllInjected True; a timeout fails the injection and the"
                + " rollback deletes it",
            "ttl: Chaos Mesh ends it at spec.duration 1m from its creation, without firedrill",
            "rollback: delete it and wait up to 3s until it is gone with AllRecovered True; a"
                + " deletion held by its chaos-mesh/records finalizer is left to a human, never"
                + " forced");
    assertThat(networkChaos()).isEmpty();
    fault.inject();
    GenericKubernetesResource created = networkChaos().get(0);
    assertThat(created.getMetadata().getName()).isEqualTo("firedrill-exp-1-0");
    assertThat(created.getMetadata().getLabels())
        .containsEntry("firedrill.dev/experiment", "exp-1")
        .containsEntry("firedrill.dev/fault", "0");
    assertThat(created.getMetadata().getFinalizers()).containsExactly("chaos-mesh/records");
    assertThat(ChaosStatus.conditions(created))
        .isEqualTo("Selected True, AllInjected True, AllRecovered False");
    assertThat(fault.selected()).containsExactly("web-0");
    assertThat(fault.ttlEnforcer()).isEqualTo(TtlEnforcer.INJECTOR);
    assertThat(fault.state())
        .containsEntry("name", "firedrill-exp-1-0")
        .containsEntry("selected", List.of("web-0"));
    fault.revert();
    Verification verification = fault.verify();
    assertThat(verification.reverted()).as(verification.detail()).isTrue();
    assertThat(verification.detail())
        .isEqualTo(
            "deleted NetworkChaos shop/firedrill-exp-1-0; verified: AllRecovered was True and no"
                + " NetworkChaos labelled firedrill.dev/experiment=exp-1 is left in shop");
    assertThat(networkChaos()).isEmpty();
    fault.revert(); // idempotent: nothing left to delete
    assertThat(fault.verify().reverted()).isTrue();
  }

  @Test
  void aPodKillIsWaitedForAsOneShot() throws Exception {
    ChaosMeshFault fault = ChaosDrills.fault(shop.kubeconfig(), ChaosDrills.podKill(), 0.34, null);
    assertThat(fault.plan())
        .contains(
            "pod-kill acts once: wait up to 3s for Selected and AllInjected True; a timeout fails"
                + " the injection and the rollback deletes it",
            "rollback: delete it and wait up to 3s until it is gone (pod-kill leaves nothing to"
                + " recover: the owners replace the pods); a deletion held by its"
                + " chaos-mesh/records finalizer is left to a human, never forced");
    fault.inject();
    assertThat(fault.selected()).containsExactly("web-0");
    fault.revert();
    assertThat(fault.verify().detail())
        .isEqualTo(
            "deleted PodChaos shop/firedrill-exp-1-0; no PodChaos labelled"
                + " firedrill.dev/experiment=exp-1 is left in shop (pod-kill acted once: nothing to"
                + " recover)");
    assertThat(shop.chaosMesh().objects("PodChaos", "shop")).isEmpty();
  }

  @Test
  void theTtlRuleRefusesAMissingAndATooLongDurationBeforeAnythingRuns() {
    assertThatThrownBy(
            () ->
                ChaosDrills.fault(shop.kubeconfig(), ChaosDrills.networkChaos(null), null, null)
                    .plan())
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "chaos-mesh: NetworkChaos shop has no spec.duration; firedrill requires one no longer"
                + " than the fault's ttl 1m, so Chaos Mesh ends the fault by itself (it counts the"
                + " duration from the object's creation)");
    assertThatThrownBy(
            () ->
                ChaosDrills.fault(shop.kubeconfig(), ChaosDrills.networkChaos("1m30s"), null, null)
                    .plan())
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "chaos-mesh: NetworkChaos shop has spec.duration 1m30s, longer than the fault's ttl 1m;"
                + " expected a duration of at most 1m (Chaos Mesh counts it from the object's"
                + " creation)");
    assertThat(networkChaos()).isEmpty();
  }

  @Test
  void theBlastRadiusRefusesMoreLivePodsThanItAllows() throws Exception {
    var object = ChaosDrills.networkChaos("60s");
    ((com.fasterxml.jackson.databind.node.ObjectNode) object.get("spec"))
        .put("mode", "fixed-percent")
        .put("value", "34");
    ChaosMeshFault fault = ChaosDrills.fault(shop.kubeconfig(), object, null, 1);
    String refusal =
        "chaos-mesh: fixed-percent 34% picks up to 2 of 3 running pods matching app=web in shop;"
            + " the blast radius allows 1 (max_pods 1, rounded down)";
    assertThatThrownBy(fault::plan).isInstanceOf(FaultRefusedException.class).hasMessage(refusal);
    assertThatThrownBy(fault::inject).isInstanceOf(FaultRefusedException.class).hasMessage(refusal);
    assertThat(networkChaos()).isEmpty();
  }

  @Test
  void neverAllInjectedFailsTheInjectionAndTheRollbackLeavesNothing() throws Exception {
    shop.chaosMesh().neverInject();
    ChaosMeshFault fault =
        ChaosDrills.fault(
            shop.kubeconfig(),
            ChaosDrills.networkChaos("60s"),
            0.34,
            null,
            Duration.ofMillis(800),
            Duration.ofSeconds(3));
    assertThatThrownBy(fault::inject)
        .isInstanceOf(FaultException.class)
        .hasMessage(
            "chaos-mesh: NetworkChaos shop/firedrill-exp-1-0 was not injected within 800ms"
                + " (Selected True, AllInjected False, AllRecovered False); the rollback deletes it");
    assertThat(networkChaos()).hasSize(1);
    fault.revert(); // what the engine's rollback does for a fault that failed to inject
    Verification verification = fault.verify();
    assertThat(verification.reverted()).as(verification.detail()).isTrue();
    assertThat(verification.detail())
        .isEqualTo(
            "deleted NetworkChaos shop/firedrill-exp-1-0; verified: AllRecovered was True and no"
                + " NetworkChaos labelled firedrill.dev/experiment=exp-1 is left in shop");
    assertThat(networkChaos()).isEmpty();
  }

  @Test
  void aDeletionHeldByTheFinalizerIsLeftToAHumanWithTheCommands() throws Exception {
    shop.chaosMesh().neverReleaseFinalizer();
    ChaosMeshFault fault =
        ChaosDrills.fault(
            shop.kubeconfig(),
            ChaosDrills.networkChaos("60s"),
            0.34,
            null,
            Duration.ofSeconds(3),
            Duration.ofMillis(600));
    fault.inject();
    String warning =
        "do not remove the chaos-mesh/records finalizer by hand: that deletes the object and"
            + " leaves the fault in place in the pods, since only Chaos Mesh's recovery undoes it;"
            + " find out why Chaos Mesh cannot recover (its controller and chaos-daemon pods) and"
            + " let it finish";
    assertThatThrownBy(fault::revert)
        .isInstanceOf(FaultException.class)
        .hasMessage(
            "chaos-mesh: the deletion of NetworkChaos shop/firedrill-exp-1-0 did not finish within"
                + " 600ms: Chaos Mesh still holds its chaos-mesh/records finalizer (Selected True,"
                + " AllInjected True, AllRecovered False), so the fault may still be in the pods; "
                + warning);
    Verification verification = fault.verify();
    assertThat(verification.reverted()).isFalse();
    assertThat(verification.detail())
        .startsWith("NetworkChaos shop/firedrill-exp-1-0 is still there (deleting since ")
        .endsWith(
            ", finalizers [chaos-mesh/records], Selected True, AllInjected True, AllRecovered"
                + " False)");
    assertThat(fault.manualRevertCommand())
        .isEqualTo(
            "kubectl -n shop get networkchaos.chaos-mesh.org firedrill-exp-1-0 -o yaml && kubectl"
                + " -n chaos-mesh get pods && kubectl -n shop wait --for=delete"
                + " networkchaos.chaos-mesh.org/firedrill-exp-1-0 --timeout=5m ("
                + warning
                + ")");
    // firedrill never forces it: the object is still there, finalizer and all.
    assertThat(networkChaos().get(0).getMetadata().getFinalizers())
        .containsExactly("chaos-mesh/records");
  }
}
