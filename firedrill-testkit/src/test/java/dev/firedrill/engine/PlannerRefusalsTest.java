package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.firedrill.experiment.Control;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.Missing;
import dev.firedrill.experiment.Sli;
import dev.firedrill.experiment.SteadyState;
import dev.firedrill.guard.ErrorBudget;
import dev.firedrill.testing.MinimalExperiment;
import dev.firedrill.testing.ScriptedDrill;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The refusals the experiment file alone earns, at their boundaries. */
class PlannerRefusalsTest {

  /**
   * The minimal experiment with a fault the checks pass: a cpu-burn whose ttl is the longest
   * allowed.
   */
  private static final String TEXT =
      MinimalExperiment.replace(
          MinimalExperiment.TEXT,
          "    - kind: process-kill\n      match: payments-server\n",
          "    - kind: cpu-burn\n      workers: 1\n      ttl: 15m\n");

  private static Experiment withDuration(String duration) {
    return MinimalExperiment.load(
        MinimalExperiment.replace(TEXT, "  duration: 10m\n", "  duration: " + duration + "\n"));
  }

  private static Experiment withInterval(String interval) {
    return MinimalExperiment.load(
        MinimalExperiment.replace(
            TEXT, "steady_state:\n", "steady_state:\n  interval: " + interval + "\n"));
  }

  @Test
  void theBaseExperimentEarnsNoRefusal() {
    assertThat(Planner.staticRefusals(MinimalExperiment.load(TEXT))).isEmpty();
  }

  @Test
  void aMethodAsLongAsTheMaximumIsAllowedAndOneSecondMoreIsNot() {
    assertThat(Planner.staticRefusals(withDuration("15m"))).isEmpty();
    assertThat(Planner.staticRefusals(withDuration("901s")))
        .startsWith("method.duration 15m1s is above blast_radius.max_duration 15m");
  }

  @Test
  void anIntervalAsLongAsTheMethodIsAllowedAndALongerOneIsNot() {
    assertThat(Planner.staticRefusals(withInterval("10m"))).isEmpty();
    assertThat(Planner.staticRefusals(withInterval("601s")))
        .containsExactly(
            "steady_state.interval 10m1s is longer than method.duration 10m: no measurement would"
                + " be taken while the faults are on");
  }

  @Test
  void theBudgetComesFromTheBurnRateGuardAndTheBlastRadius() {
    ErrorBudget budget =
        Planner.budget(MinimalExperiment.load(MinimalExperiment.TEXT)).orElseThrow();
    assertThat(budget.objective()).isEqualTo(0.999);
    assertThat(budget.trafficShare()).isEqualTo(0.05);
    assertThat(budget.duration()).isEqualTo(Duration.ofMinutes(10));
    assertThat(budget.window()).isEqualTo(Duration.ofDays(30));
    assertThat(budget.worstCaseMinutes()).isCloseTo(0.5, within(1e-9));
    assertThat(budget.remainingShare()).isEmpty();
  }

  @Test
  void anAbortSectionWithNeitherRulesNorABurnRateGuardIsRefused() {
    Experiment experiment =
        MinimalExperiment.load(
            MinimalExperiment.replace(
                TEXT,
                "abort:\n  rules:\n    - sli: error_ratio\n      above: 0.05\n  burn_rate:\n"
                    + "    error_ratio: up\n    objective: 0.999\n    max: 14.4\n",
                "abort:\n  probe_errors: 3\n"));

    assertThat(Planner.staticRefusals(experiment))
        .containsExactly(
            "abort has neither rules nor burn_rate: nothing could stop the drill early");
    assertThat(Planner.budget(experiment)).isEmpty();
  }

  @Test
  void aBurnRateGuardAloneOrARuleAloneIsEnoughToAbort() {
    String rules = "  rules:\n    - sli: error_ratio\n      above: 0.05\n";
    String guard = "  burn_rate:\n    error_ratio: up\n    objective: 0.999\n    max: 14.4\n";

    assertThat(Planner.staticRefusals(MinimalExperiment.load(TEXT.replace(rules, "")))).isEmpty();
    assertThat(Planner.staticRefusals(MinimalExperiment.load(TEXT.replace(guard, "")))).isEmpty();
  }

  @Test
  void aWorstCaseAboveTheBudgetCeilingIsRefusedAtPlanTime() {
    // 10 minutes at 5% of the traffic, all of it failing, against 43.2 minutes of budget: 0.5
    // minutes, 1.157% of it, above a 1% ceiling.
    Experiment experiment =
        MinimalExperiment.load(
            MinimalExperiment.replace(
                TEXT, "  max_duration: 15m\n", "  max_duration: 15m\n  budget_ceiling: 0.01\n"));

    assertThat(Planner.staticRefusals(experiment))
        .containsExactly(
            "worst-case spend 1.157% of the error budget is above the ceiling of 1%"
                + " (blast_radius.budget_ceiling)");
  }

  @Test
  void aControlQueryThatIsNotPromqlIsRefusedNamingItsSli() {
    ScriptedDrill drill = new ScriptedDrill();
    Sli errorRatio = drill.experiment().build().steadyState().slis().get(0);
    Sli p95 =
        new Sli(
            "p95",
            "p95{pod=~\"{{ targets }}\"}",
            OptionalDouble.empty(),
            OptionalDouble.empty(),
            Missing.FAIL,
            Optional.of(
                new Control(
                    "p95{pod!~\"{{ targets }}\"",
                    OptionalDouble.empty(),
                    OptionalDouble.of(0.05),
                    OptionalDouble.empty(),
                    OptionalDouble.empty())));
    Experiment experiment =
        drill
            .experiment()
            .steadyState(new SteadyState(Duration.ofSeconds(5), List.of(errorRatio, p95)))
            .build();

    assertThat(Planner.staticRefusals(experiment))
        .containsExactly(
            "steady_state.slis[1].control (p95): not valid PromQL: 1:14: parse error: unexpected"
                + " end of input inside braces");
  }

  @Test
  void eachQueryThatIsNotPromqlIsRefusedNamingItsField() {
    Experiment experiment =
        MinimalExperiment.load(
            MinimalExperiment.replace(
                MinimalExperiment.replace(
                    MinimalExperiment.replace(
                        TEXT,
                        "      max: 0.005\n",
                        "      max: 0.005\n    - name: latency\n      query: sum(up\n      max: 1\n"),
                    "    error_ratio: up\n",
                    "    error_ratio: up +\n"),
                "    max: 14.4\n",
                "    max: 14.4\n    remaining_budget: up{\n"));

    assertThat(Planner.staticRefusals(experiment))
        .containsExactly(
            "steady_state.slis[1].query (latency): not valid PromQL: 1:7: parse error: unclosed"
                + " left parenthesis",
            "abort.burn_rate.error_ratio: not valid PromQL: 1:5: parse error: unexpected end of"
                + " input",
            "abort.burn_rate.remaining_budget: not valid PromQL: 1:4: parse error: unexpected end"
                + " of input inside braces");
  }
}
