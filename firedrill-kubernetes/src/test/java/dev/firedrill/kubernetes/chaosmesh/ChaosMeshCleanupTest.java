package dev.firedrill.kubernetes.chaosmesh;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.engine.Cleanup;
import dev.firedrill.engine.FaultProvider;
import dev.firedrill.engine.Journal;
import dev.firedrill.engine.JournalFile;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.FaultKinds;
import dev.firedrill.kubernetes.testing.ChaosMeshController;
import dev.firedrill.kubernetes.testing.ChaosMeshShop;
import dev.firedrill.time.Clock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code firedrill cleanup JOURNAL} for a chaos-mesh fault whose firedrill was killed after
 * injecting it: the engine's Cleanup over a journal that shows it injected and not reverted.
 */
class ChaosMeshCleanupTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  @RegisterExtension final ChaosMeshShop shop = new ChaosMeshShop(Duration.ofMillis(200));

  /** The journal a killed firedrill leaves: the fault injected, its state, no revert. */
  private JournalFile journal(ChaosMeshSpec spec, Map<String, Object> state) {
    ObjectNode root = JSON.createObjectNode();
    root.put("firedrill_journal", Journal.FORMAT);
    ObjectNode fault = root.putArray("faults").addObject();
    fault.put("index", 0);
    fault.put("kind", "chaos-mesh");
    fault.set("spec", FaultKinds.installed().writeJournal(spec));
    fault.put("injected", true);
    fault.put("reverted", false);
    fault.set("state", JSON.valueToTree(state));
    JournalFile file = new JournalFile(dir.resolve("drill.journal.json"));
    file.write(Journal.of(root));
    return file;
  }

  private Cleanup.Result cleanup(JournalFile file, FaultContext context, List<String> lines)
      throws Exception {
    FaultProvider faults =
        new FaultProvider() {
          @Override
          public Fault create(FaultSpec spec) {
            return new ChaosMeshKind().create((ChaosMeshSpec) spec, context, 0);
          }

          @Override
          public Fault restore(FaultSpec spec, Map<String, Object> state) throws FaultException {
            return new ChaosMeshKind().restore((ChaosMeshSpec) spec, context, state);
          }
        };
    return new Cleanup(faults, Clock.system()).run(file.read(), file, o -> lines.add(o.line()));
  }

  @Test
  void afterAKilledRunTheObjectExpiresAtItsDurationAndCleanupLeavesNothing() throws Exception {
    ChaosMeshSpec spec =
        ChaosDrills.spec(
            ChaosDrills.networkChaos("1s"), Duration.ofSeconds(3), Duration.ofSeconds(3));
    FaultContext context = ChaosDrills.context(shop.kubeconfig(), ChaosDrills.blast(0.34, null));
    Fault fault = new ChaosMeshKind().create(spec, context, 0);
    fault.inject();
    JournalFile file = journal(spec, fault.state());
    // firedrill is SIGKILLed here: the fault object is dropped, its revert never runs.
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (!ChaosStatus.isTrue(
            shop.chaosMesh().objects("NetworkChaos", "shop").get(0), "AllRecovered")
        && System.nanoTime() < deadline) {
      Clock.system().sleep(Duration.ofMillis(50));
    }
    assertThat(ChaosStatus.conditions(shop.chaosMesh().objects("NetworkChaos", "shop").get(0)))
        .as("Chaos Mesh recovered it at its duration, without firedrill")
        .isEqualTo("Selected True, AllInjected False, AllRecovered True");

    List<String> lines = new ArrayList<>();
    Cleanup.Result result = cleanup(file, context, lines);
    assertThat(result.needsHuman()).isFalse();
    assertThat(lines)
        .containsExactly(
            "fault 0 (chaos-mesh): reverted: deleted NetworkChaos shop/firedrill-exp-1-0;"
                + " verified: AllRecovered was True and no NetworkChaos labelled"
                + " firedrill.dev/experiment=exp-1 is left in shop");
    assertThat(shop.chaosMesh().objects("NetworkChaos", "shop")).isEmpty();
    // Run again, as cleanup's "nothing left to revert": the journal now says reverted.
    assertThat(cleanup(file, context, new ArrayList<>()).outcomes()).isEmpty();
  }

  @Test
  void anObjectSomeoneAlreadyDeletedIsNothingLeftToRevert() throws Exception {
    ChaosMeshSpec spec =
        ChaosDrills.spec(
            ChaosDrills.networkChaos("60s"), Duration.ofSeconds(3), Duration.ofSeconds(3));
    FaultContext context = ChaosDrills.context(shop.kubeconfig(), ChaosDrills.blast(0.34, null));
    Fault fault = new ChaosMeshKind().create(spec, context, 0);
    fault.inject();
    JournalFile file = journal(spec, fault.state());
    shop.cluster()
        .client()
        .genericKubernetesResources(ChaosMeshController.context("NetworkChaos"))
        .inNamespace("shop")
        .withName("firedrill-exp-1-0")
        .delete();
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (!shop.chaosMesh().objects("NetworkChaos", "shop").isEmpty()
        && System.nanoTime() < deadline) {
      Clock.system().sleep(Duration.ofMillis(50));
    }
    List<String> lines = new ArrayList<>();
    assertThat(cleanup(file, context, lines).needsHuman()).isFalse();
    assertThat(lines)
        .containsExactly(
            "fault 0 (chaos-mesh): nothing left to revert: no NetworkChaos labelled"
                + " firedrill.dev/experiment=exp-1 is left in shop");
  }

  @Test
  void aDeletionHeldByTheFinalizerNeedsAHuman() throws Exception {
    shop.chaosMesh().neverReleaseFinalizer();
    ChaosMeshSpec spec =
        ChaosDrills.spec(
            ChaosDrills.networkChaos("60s"), Duration.ofSeconds(3), Duration.ofMillis(500));
    FaultContext context = ChaosDrills.context(shop.kubeconfig(), ChaosDrills.blast(0.34, null));
    Fault fault = new ChaosMeshKind().create(spec, context, 0);
    fault.inject();
    JournalFile file = journal(spec, fault.state());

    List<String> lines = new ArrayList<>();
    Cleanup.Result result = cleanup(file, context, lines);
    // ExitCode.of(Cleanup.Result) turns needsHuman into 7, as a failed rollback at a drill's end.
    assertThat(result.needsHuman()).isTrue();
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0))
        .startsWith(
            "fault 0 (chaos-mesh): chaos-mesh: the deletion of NetworkChaos"
                + " shop/firedrill-exp-1-0 did not finish within 500ms: Chaos Mesh still holds its"
                + " chaos-mesh/records finalizer")
        .endsWith(
            "; run by hand: kubectl -n shop get networkchaos.chaos-mesh.org firedrill-exp-1-0 -o"
                + " yaml && kubectl -n chaos-mesh get pods && kubectl -n shop wait --for=delete"
                + " networkchaos.chaos-mesh.org/firedrill-exp-1-0 --timeout=5m ("
                + ChaosMeshFault.WARNING
                + ")");
    assertThat(file.read().faults().get(0).path("revert").path("manual_command").asText())
        .isEqualTo(fault.manualRevertCommand());
    assertThat(
            shop.chaosMesh().objects("NetworkChaos", "shop").get(0).getMetadata().getFinalizers())
        .containsExactly("chaos-mesh/records");
  }
}
