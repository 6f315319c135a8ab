package dev.firedrill.kubernetes.chaosmesh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.engine.Planner;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.ExperimentException;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.fault.FaultKinds;
import dev.firedrill.kubernetes.select.Selection;
import dev.firedrill.kubernetes.select.SelectionMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ChaosMeshKindTest {

  private static final Path FIXTURE = Path.of("fixtures/experiments/chaos-mesh.yaml");

  private static final String MANIFEST = "      manifest: fixtures/chaos-mesh/networkchaos.yaml\n";

  private static Experiment load(String from, String to) throws Exception {
    return ExperimentLoader.load("chaos-mesh.yaml", Files.readString(FIXTURE).replace(from, to));
  }

  private static ChaosMeshSpec spec(Experiment experiment) {
    return (ChaosMeshSpec) experiment.method().faults().get(0);
  }

  /** The fixture's fault with {@code object} inline instead of its manifest. */
  private static Experiment inline(String object) throws Exception {
    return load(MANIFEST, "      object:\n" + object.indent(8));
  }

  private static final String DELAY =
      "apiVersion: chaos-mesh.org/v1alpha1\nkind: NetworkChaos\nmetadata:\n  namespace: shop\n"
          + "spec:\n  action: delay\n  mode: one\n  selector:\n    labelSelectors: {app: web}\n"
          + "  delay: {latency: 200ms}\n  duration: 1m30s\n";

  @Test
  void readsTheFixturesManifest() throws Exception {
    Experiment experiment = ExperimentLoader.load(FIXTURE);
    ChaosMeshSpec spec = spec(experiment);
    assertThat(spec.chaosKind()).isEqualTo("NetworkChaos");
    assertThat(spec.action()).isEqualTo("delay");
    assertThat(spec.oneShot()).isFalse();
    assertThat(spec.selector())
        .isEqualTo(new ChaosSelector(List.of("shop"), Map.of("app", "web"), List.of()));
    assertThat(spec.selection()).isEqualTo(new Selection(SelectionMode.ONE, 0));
    assertThat(spec.duration()).contains(Duration.ofMinutes(2));
    assertThat(spec.injectTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(spec.deleteTimeout()).isEqualTo(Duration.ofMinutes(1));
    assertThat(spec.object().path("spec").path("delay").path("jitter").asText()).isEqualTo("10ms");
    assertThat(spec.target()).isEqualTo("NetworkChaos delay on pods app=web in shop");
    assertThat(spec.targetName()).isEqualTo("shop");
    assertThat(new ChaosMeshKind().words(spec))
        .contains("NetworkChaos delay on one of the pods app=web in shop for 2m");
    assertThat(Planner.staticRefusals(experiment)).isEmpty();
  }

  @Test
  void anInlineObjectDefaultsItsNamespacesToItsOwnAndTheJournalKeepsItInline() throws Exception {
    ChaosMeshSpec spec = spec(inline(DELAY));
    assertThat(spec.selector().namespaces()).containsExactly("shop");
    assertThat(spec.duration()).contains(Duration.ofSeconds(90));
    ObjectNode journal = FaultKinds.installed().writeJournal(spec);
    assertThat(journal.has("manifest")).isFalse();
    assertThat(journal.path("object").path("kind").asText()).isEqualTo("NetworkChaos");
    assertThat(FaultKinds.installed().readJournal(journal)).isEqualTo(spec);
  }

  @Test
  void theFileAloneRefusesTheTtlRuleAndTheStaticBlastRadius() throws Exception {
    assertThat(Planner.staticRefusals(inline(DELAY.replace("  duration: 1m30s\n", ""))))
        .containsExactly(
            "method.faults[0] (chaos-mesh): chaos-mesh: NetworkChaos shop has no spec.duration;"
                + " firedrill requires one no longer than the fault's ttl 3m, so Chaos Mesh ends"
                + " the fault by itself (it counts the duration from the object's creation)");
    assertThat(Planner.staticRefusals(inline(DELAY.replace("1m30s", "4m"))))
        .containsExactly(
            "method.faults[0] (chaos-mesh): chaos-mesh: NetworkChaos shop has spec.duration 4m,"
                + " longer than the fault's ttl 3m; expected a duration of at most 3m (Chaos Mesh"
                + " counts it from the object's creation)");
    assertThat(
            Planner.staticRefusals(
                inline(
                    DELAY.replace(
                        "    labelSelectors",
                        "    namespaces: [kube-system]\n    labelSelectors"))))
        .containsExactly(
            "method.faults[0] (chaos-mesh): chaos-mesh: namespace kube-system is a system"
                + " namespace; it is refused unless blast_radius.namespaces lists it");
    assertThat(Planner.staticRefusals(inline(DELAY.replace("mode: one", "mode: all"))))
        .containsExactly(
            "method.faults[0] (chaos-mesh): chaos-mesh: mode all hits every matching pod, and the"
                + " blast radius limits max_percent 34%, max_pods 1");
  }

  @Test
  void wrongObjectsAreProblemsNamingTheirPointerOrTheManifest() throws Exception {
    assertThatThrownBy(
            () ->
                inline(
                    DELAY
                        .replace("chaos-mesh.org/v1alpha1", "v1")
                        .replace("mode: one", "mode: some")
                        .replace("1m30s", "90")))
        .isInstanceOf(ExperimentException.class)
        .hasMessageContaining(
            "/method/faults/0/object/apiVersion: expected apiVersion chaos-mesh.org/v1alpha1, got"
                + " \"v1\"")
        .hasMessageContaining(
            "/method/faults/0/object/spec/mode: unknown mode \"some\"; expected one of: one, all,"
                + " fixed, fixed-percent, random-max-percent")
        .hasMessageContaining(
            "/method/faults/0/object/spec/duration: expected a duration as Chaos Mesh takes it"
                + " (Go's), such as 60s, 1m30s or 1.5h, got 90");
    assertThatThrownBy(
            () ->
                inline(
                    DELAY.replace("    labelSelectors: {app: web}", "    pods: {shop: [web-0]}")))
        .hasMessageContaining(
            "/method/faults/0/object/spec/selector/pods: firedrill cannot count the pods this"
                + " selects, so it cannot check the blast radius; select by namespaces,"
                + " labelSelectors and expressionSelectors");
    assertThatThrownBy(() -> load(MANIFEST, "      manifest: fixtures/chaos-mesh/missing.yaml\n"))
        .hasMessageContaining(
            "/method/faults/0/manifest: cannot read the manifest fixtures/chaos-mesh/missing.yaml:"
                + " no such file");
    assertThatThrownBy(() -> load(MANIFEST, MANIFEST + "      object: {kind: PodChaos}\n"))
        .hasMessageContaining(
            "/method/faults/0/object: manifest and object both name the Chaos Mesh object; keep"
                + " one");
    assertThatThrownBy(() -> load(MANIFEST, ""))
        .hasMessageContaining(
            "/method/faults/0/manifest: missing; chaos-mesh needs manifest: a file holding one Chaos"
                + " Mesh object, or object: the object inline");
  }

  @Test
  void goDurationsAsChaosMeshReadsThem() {
    assertThat(GoDuration.parse("1m30s")).isEqualTo(Duration.ofSeconds(90));
    assertThat(GoDuration.parse("1.5h")).isEqualTo(Duration.ofMinutes(90));
    assertThat(GoDuration.parse("300ms")).isEqualTo(Duration.ofMillis(300));
    assertThat(GoDuration.parse("90")).isNull();
    assertThat(GoDuration.parse("1d")).isNull();
    assertThat(Optional.ofNullable(GoDuration.parse("-5s"))).isEmpty();
  }
}
