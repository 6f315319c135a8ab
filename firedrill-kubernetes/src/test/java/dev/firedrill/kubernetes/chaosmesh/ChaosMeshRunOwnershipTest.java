package dev.firedrill.kubernetes.chaosmesh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.fault.FaultException;
import dev.firedrill.kubernetes.testing.ChaosMeshShop;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two runs of one experiment against one namespace: the second is refused before it creates
 * anything, and should it get as far as the create, its rollback deletes only its own run's object,
 * never the first run's, which is still in its method.
 */
class ChaosMeshRunOwnershipTest {

  @RegisterExtension final ChaosMeshShop shop = new ChaosMeshShop(Duration.ofMillis(200));

  private ChaosMeshFault fault(String runId) {
    return new ChaosMeshFault(
        ChaosDrills.spec(
            ChaosDrills.networkChaos("60s"), Duration.ofSeconds(3), Duration.ofSeconds(3)),
        ChaosDrills.context(shop.kubeconfig(), ChaosDrills.blast(0.34, null)).withRunId(runId),
        0);
  }

  private List<GenericKubernetesResource> networkChaos() {
    return shop.chaosMesh().objects("NetworkChaos", "shop");
  }

  @Test
  void aSecondRunIsRefusedUpFrontAndItsRollbackLeavesTheFirstRunsObject() throws Exception {
    ChaosMeshFault first = fault("0000000a");
    first.plan();
    first.inject();
    assertThat(networkChaos()).hasSize(1);
    assertThat(networkChaos().get(0).getMetadata().getLabels())
        .containsEntry("firedrill.dev/run", "0000000a");
    assertThat(first.state()).containsEntry("run", "0000000a");
    assertThat(first.stateBeforeInjection().orElseThrow())
        .containsEntry("name", "firedrill-exp-1-0");

    ChaosMeshFault second = fault("0000000b");
    assertThatThrownBy(second::plan)
        .isInstanceOf(FaultException.class)
        .hasMessageStartingWith(
            "chaos-mesh: NetworkChaos shop/firedrill-exp-1-0 of experiment exp-1 already exists:"
                + " another drill of this experiment is running against this namespace");

    // Past the plan (a race between two plans): its create fails, its rollback deletes nothing.
    assertThatThrownBy(second::inject).isInstanceOf(FaultException.class);
    second.revert();
    assertThat(second.verify().reverted()).isTrue();
    assertThat(second.verify().detail())
        .contains("firedrill.dev/experiment=exp-1 and firedrill.dev/run=0000000b");
    assertThat(networkChaos()).as("the first run's object").hasSize(1);

    first.revert();
    assertThat(first.verify().reverted()).as(first.verify().detail()).isTrue();
    assertThat(networkChaos()).isEmpty();
  }

  @Test
  void cleanupRestoresTheRunFromTheJournalsState() throws Exception {
    ChaosMeshFault first = fault("0000000a");
    first.plan();
    first.inject();
    Map<String, Object> state = first.state();

    // Cleanup's own context draws a fresh run id: the journal's state says whose object it is.
    ChaosMeshFault restored = fault("0000000c");
    restored.restoreState(state);
    restored.revert();
    assertThat(restored.verify().reverted()).isTrue();
    assertThat(networkChaos()).isEmpty();

    first.inject();
    ChaosMeshFault other = fault("0000000c");
    other.restoreState(Map.of("index", 0, "run", "0000000d"));
    other.revert();
    assertThat(networkChaos()).as("another run's object, left alone").hasSize(1);
  }
}
