package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PlanChaosMeshTest {

  @Test
  void thePlanNamesTheObjectItsWaitsItsTtlAndItsRollback() {
    CliRun run = CliRun.of("plan", "fixtures/experiments/chaos-mesh.yaml");
    assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.HELD);
    assertThat(run.out())
        .contains(
            "fault 0 (chaos-mesh, ttl 3m, enforced by the injector):\n"
                + "  NetworkChaos delay on one of the pods app=web in shop for 2m\n"
                + "  create NetworkChaos shop/firedrill-checkout-web-delay-0"
                + " (chaos-mesh.org/v1alpha1, action delay) labelled"
                + " firedrill.dev/experiment=checkout-web-delay, its spec as written\n"
                + "  Chaos Mesh selects one of the running pods matching app=web in shop, within"
                + " max_percent 34%, max_pods 1 (rounded down); plan --resolve counts the live"
                + " pods\n"
                + "  wait up to 30s for Selected and AllInjected True; a timeout fails the injection"
                + " and the rollback deletes it\n"
                + "  ttl: Chaos Mesh ends it at spec.duration 2m from its creation, without"
                + " firedrill\n"
                + "  rollback: delete it and wait up to 1m until it is gone with AllRecovered True; a"
                + " deletion held by its chaos-mesh/records finalizer is left to a human, never"
                + " forced\n")
        .contains("nothing was executed");
  }
}
