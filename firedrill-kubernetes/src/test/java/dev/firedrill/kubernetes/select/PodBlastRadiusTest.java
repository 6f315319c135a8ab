package dev.firedrill.kubernetes.select;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.experiment.BlastRadius;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PodBlastRadiusTest {

  static BlastRadius blast(List<String> namespaces, Double maxPercent, Integer maxPods) {
    return new BlastRadius(
        1.0,
        Duration.ofMinutes(5),
        0.05,
        1,
        1,
        namespaces,
        Optional.ofNullable(maxPercent),
        Optional.ofNullable(maxPods),
        false);
  }

  private static final Selection ONE = new Selection(SelectionMode.ONE, 0);

  @Test
  void limitsRoundDown() {
    assertThat(new PodBlastRadius("pod-delete", blast(List.of("shop"), 0.34, null)).allowed(3))
        .isEqualTo(1);
    assertThat(new PodBlastRadius("pod-delete", blast(List.of("shop"), 0.34, null)).allowed(1))
        .isZero();
    assertThat(new PodBlastRadius("pod-delete", blast(List.of("shop"), 0.5, 2)).allowed(10))
        .isEqualTo(2);
    assertThat(new PodBlastRadius("pod-delete", blast(List.of("shop"), null, null)).allowed(10))
        .isEqualTo(10);
  }

  @Test
  void aNamespaceOutsideTheAllowListIsRefused() {
    PodBlastRadius radius = new PodBlastRadius("pod-delete", blast(List.of("shop"), null, null));
    assertThatThrownBy(() -> radius.checkStatic("billing", ONE))
        .hasMessage("pod-delete: namespace billing is not in blast_radius.namespaces (shop)");
    PodBlastRadius none = new PodBlastRadius("pod-delete", blast(List.of(), null, null));
    assertThatThrownBy(() -> none.checkStatic("shop", ONE))
        .hasMessage("pod-delete: namespace shop is not in blast_radius.namespaces (none listed)");
  }

  @Test
  void systemNamespacesAreRefusedUnlessListed() throws Exception {
    PodBlastRadius radius = new PodBlastRadius("pod-delete", blast(List.of("shop"), null, null));
    for (String system : List.of("kube-system", "kube-public", "kube-node-lease")) {
      assertThatThrownBy(() -> radius.checkStatic(system, ONE))
          .hasMessage(
              "pod-delete: namespace "
                  + system
                  + " is a system namespace; it is refused unless blast_radius.namespaces lists it");
    }
    new PodBlastRadius("pod-delete", blast(List.of("kube-system"), null, null))
        .checkStatic("kube-system", ONE);
  }

  @Test
  void theFileAloneRefusesModeAllUnderALimitAndValuesAboveIt() {
    PodBlastRadius radius = new PodBlastRadius("pod-delete", blast(List.of("shop"), 0.5, 2));
    assertThatThrownBy(() -> radius.checkStatic("shop", new Selection(SelectionMode.ALL, 0)))
        .hasMessage(
            "pod-delete: mode all hits every matching pod, and the blast radius limits max_percent"
                + " 50%, max_pods 2");
    assertThatThrownBy(() -> radius.checkStatic("shop", new Selection(SelectionMode.FIXED, 3)))
        .hasMessage("pod-delete: mode fixed picks 3 pods; blast_radius.max_pods allows 2");
    assertThatThrownBy(
            () -> radius.checkStatic("shop", new Selection(SelectionMode.FIXED_PERCENT, 60)))
        .hasMessage("pod-delete: mode fixed-percent 60% is more than blast_radius.max_percent 50%");
  }

  @Test
  void theLiveCheckComparesTheWorstCaseWithTheLimitNamingBoth() throws Exception {
    PodBlastRadius radius = new PodBlastRadius("pod-delete", blast(List.of("shop"), 0.34, null));
    assertThatThrownBy(
            () ->
                radius.checkLive(
                    "app=web in shop", new Selection(SelectionMode.FIXED_PERCENT, 34), 3))
        .hasMessage(
            "pod-delete: fixed-percent 34% picks up to 2 of 3 running pods matching app=web in"
                + " shop; the blast radius allows 1 (max_percent 34%, rounded down)");
    assertThatThrownBy(() -> radius.checkLive("app=web in shop", ONE, 1))
        .hasMessage(
            "pod-delete: one picks up to 1 of 1 running pods matching app=web in shop; the blast"
                + " radius allows 0 (max_percent 34%, rounded down)");
    assertThatThrownBy(() -> radius.checkLive("app=web in shop", ONE, 0))
        .hasMessage(
            "pod-delete: no running pod matches app=web in shop; a fault that hits nothing proves"
                + " nothing");
    assertThat(radius.checkLive("app=web in shop", ONE, 3)).isEqualTo(1);
  }

  @Test
  void anEmptyDrawIsRefused() {
    PodBlastRadius radius = new PodBlastRadius("pod-delete", blast(List.of("shop"), null, null));
    assertThatThrownBy(
            () ->
                radius.checkNotEmpty(
                    "app=web in shop", new Selection(SelectionMode.RANDOM_MAX_PERCENT, 20), 0, 3))
        .hasMessage(
            "pod-delete: random-max-percent 20% drew no pod of 3 matching app=web in shop; a fault"
                + " that hits nothing proves nothing");
  }
}
