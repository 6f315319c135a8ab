package dev.firedrill.kubernetes.pods;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.engine.Planner;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.experiment.FaultSpecReader;
import dev.firedrill.kubernetes.select.Selection;
import dev.firedrill.kubernetes.select.SelectionMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PodDeleteKindTest {

  private static final Path FIXTURE = Path.of("fixtures/experiments/pod-delete.yaml");

  private static Experiment load(String from, String to) throws Exception {
    return ExperimentLoader.load("pod-delete.yaml", Files.readString(FIXTURE).replace(from, to));
  }

  @Test
  void readsTheFixtureAndNamesTheNamespaceAsItsTarget() throws Exception {
    Experiment experiment = ExperimentLoader.load(FIXTURE);
    PodDeleteSpec spec = (PodDeleteSpec) experiment.method().faults().get(0);
    assertThat(spec.selector().labelText()).isEqualTo("app=web,track notin (canary)");
    assertThat(spec.selection()).isEqualTo(new Selection(SelectionMode.ONE, 0));
    assertThat(spec.via()).isEqualTo(PodDeleteSpec.Via.EVICTION);
    assertThat(spec.interval()).contains(Duration.ofSeconds(30));
    assertThat(spec.gracePeriod()).isEmpty();
    assertThat(spec.targetName()).isEqualTo("shop");
    assertThat(spec.target()).isEqualTo("pods app=web,track notin (canary) in shop");
    assertThat(experiment.kubernetesContext()).isEqualTo(Optional.of("kind-lab"));
    assertThat(Planner.staticRefusals(experiment)).isEmpty();
  }

  @Test
  void theJournalsEntryReadsBackAsTheSameSpec() throws Exception {
    PodDeleteSpec spec =
        (PodDeleteSpec) load("via: eviction", "grace_period: 0s").method().faults().get(0);
    ObjectNode node = new ObjectMapper().createObjectNode();
    node.put("kind", "pod-delete");
    new PodDeleteKind().write(spec, node);
    node.put("ttl", "3m");
    assertThat(ExperimentLoader.fault("journal", node, FaultSpecReader.installed()))
        .isEqualTo(spec);
    assertThat(spec.gracePeriod()).contains(Duration.ZERO);
    assertThat(spec.via()).isEqualTo(PodDeleteSpec.Via.DELETE);
  }

  @Test
  void theFileAloneRefusesEachStaticBlastRadiusRule() throws Exception {
    assertThat(Planner.staticRefusals(load("namespace: shop", "namespace: billing")))
        .containsExactly(
            "method.faults[0] (pod-delete): pod-delete: namespace billing is not in"
                + " blast_radius.namespaces (shop)");
    assertThat(Planner.staticRefusals(load("namespace: shop", "namespace: kube-system")))
        .containsExactly(
            "method.faults[0] (pod-delete): pod-delete: namespace kube-system is a system"
                + " namespace; it is refused unless blast_radius.namespaces lists it");
    assertThat(Planner.staticRefusals(load("mode: one", "mode: all")))
        .containsExactly(
            "method.faults[0] (pod-delete): pod-delete: mode all hits every matching pod, and the"
                + " blast radius limits max_percent 34%, max_pods 1");
    assertThat(Planner.staticRefusals(load("mode: one", "mode: fixed\n      value: 2")))
        .containsExactly(
            "method.faults[0] (pod-delete): pod-delete: mode fixed picks 2 pods;"
                + " blast_radius.max_pods allows 1");
    assertThat(Planner.staticRefusals(load("mode: one", "mode: fixed-percent\n      value: 50")))
        .containsExactly(
            "method.faults[0] (pod-delete): pod-delete: mode fixed-percent 50% is more than"
                + " blast_radius.max_percent 34%");
  }
}
