package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PlanPodDeleteTest {

  @Test
  void withoutResolveThePlanComesFromTheFileAndReachesNoCluster() {
    CliRun run = CliRun.of("plan", "fixtures/experiments/pod-delete.yaml");
    assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.HELD);
    assertThat(run.out())
        .contains(
            "fault 0 (pod-delete, ttl 3m, enforced by nothing: the fault leaves nothing to undo):\n"
                + "  evict one of the running pods app=web,track notin (canary) in shop, every 30s\n"
                + "  select one of the running pods matching app=web,track notin (canary) in shop,"
                + " chosen at injection within max_percent 34%, max_pods 1 (rounded down); plan"
                + " --resolve chooses against the live pods\n"
                + "  via eviction: the Eviction API, so PodDisruptionBudgets hold; a pod they protect"
                + " (429) is skipped and journaled\n")
        .contains("nothing was executed");
  }
}
