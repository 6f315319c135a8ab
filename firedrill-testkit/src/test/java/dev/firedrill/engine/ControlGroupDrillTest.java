package dev.firedrill.engine;

import static dev.firedrill.testing.ScriptedPrometheus.value;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.experiment.Control;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.Missing;
import dev.firedrill.experiment.Sli;
import dev.firedrill.experiment.SteadyState;
import dev.firedrill.testing.ScriptedDrill;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * A drill whose SLI compares the pods the fault selected with the others over the same minutes: the
 * queries as run, in the journal, and the verdict against the control group.
 */
class ControlGroupDrillTest {

  private static final String P95 = "p95{pod=~\"{{ targets }}\"}";
  private static final String P95_CONTROL = "p95{pod!~\"{{ targets }}\"}";
  private static final String WHOLE_GROUP = "p95{pod=~\".*\"}";
  private static final String EXPERIMENT_GROUP = "p95{pod=~\"checkout-7d9f-a|checkout-7d9f-b\"}";
  private static final String CONTROL_GROUP = "p95{pod!~\"checkout-7d9f-a|checkout-7d9f-b\"}";

  private final ScriptedDrill drill = new ScriptedDrill();

  private Experiment experiment() {
    Sli errorRatio = ScriptedDrill.steadyState(Duration.ofSeconds(5), Missing.FAIL).slis().get(0);
    Sli p95 =
        new Sli(
            "p95",
            P95,
            OptionalDouble.empty(),
            OptionalDouble.empty(),
            Missing.FAIL,
            Optional.of(
                new Control(
                    P95_CONTROL,
                    OptionalDouble.empty(),
                    OptionalDouble.of(0.05),
                    OptionalDouble.empty(),
                    OptionalDouble.empty())));
    return drill
        .experiment()
        .steadyState(new SteadyState(Duration.ofSeconds(5), List.of(errorRatio, p95)))
        .build();
  }

  @Test
  void heldWhenBothGroupsRiseTogetherAndTheJournalHoldsTheQueriesAsRun() {
    drill.fault("delete").selects("checkout-7d9f-a", "checkout-7d9f-b");
    // The morning's traffic lifts both groups alike: a fixed max would break, the delta holds.
    drill.prometheus().answer(WHOLE_GROUP, 0.30);
    drill.prometheus().answer(EXPERIMENT_GROUP, t -> value(0.30 + t / 100));
    drill.prometheus().answer(CONTROL_GROUP, t -> value(0.29 + t / 100));

    DrillResult result = drill.run(experiment());

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    JsonNode journal = result.journal().json();
    JsonNode asRun = journal.get("queries_as_run");
    assertThat(asRun).hasSize(2);
    assertThat(asRun.get(0).get("injected").asBoolean()).isFalse();
    assertThat(asRun.get(0).get("targets")).isEmpty();
    assertThat(asRun.get(0).get("slis").get(1).get("query").asText()).isEqualTo(WHOLE_GROUP);
    assertThat(asRun.get(0).get("slis").get(1).get("control").asText()).isEqualTo(WHOLE_GROUP);
    assertThat(asRun.get(1).get("injected").asBoolean()).isTrue();
    assertThat(texts(asRun.get(1).get("targets")))
        .containsExactly("checkout-7d9f-a", "checkout-7d9f-b");
    assertThat(asRun.get(1).get("slis").get(0).get("query").asText())
        .isEqualTo(ScriptedDrill.ERROR_RATIO);
    assertThat(asRun.get(1).get("slis").get(0).has("control")).isFalse();
    assertThat(asRun.get(1).get("slis").get(1).get("query").asText()).isEqualTo(EXPERIMENT_GROUP);
    assertThat(asRun.get(1).get("slis").get(1).get("control").asText()).isEqualTo(CONTROL_GROUP);
    assertThat(texts(journal.get("faults").get(0).get("selected")))
        .containsExactly("checkout-7d9f-a", "checkout-7d9f-b");

    JsonNode during = journal.get("measurements").get(2).get("readings").get(1);
    assertThat(during.get("name").asText()).isEqualTo("p95");
    assertThat(during.get("value").asDouble()).isEqualTo(0.40);
    assertThat(during.get("control").asDouble()).isEqualTo(0.39);
    assertThat(drill.lines())
        .contains(
            "+0.0s before ok: error_ratio 0.001 <= 0.01, p95 0.3 (control 0.3) delta <= 0.05 vs"
                + " control, burn_rate 1 <= 100",
            "+0.0s inject {{ targets }}: checkout-7d9f-a, checkout-7d9f-b",
            "+10.0s during ok: error_ratio 0.001 <= 0.01, p95 0.4 (control 0.39) delta <= 0.05 vs"
                + " control, burn_rate 1 <= 100");
  }

  @Test
  void deviatedWhenTheExperimentGroupLeavesTheControlGroupBehind() {
    drill.fault("delete").selects("checkout-7d9f-a", "checkout-7d9f-b");
    drill.prometheus().answer(WHOLE_GROUP, 0.30);
    drill.prometheus().answer(EXPERIMENT_GROUP, t -> value(t >= 20 && t < 60 ? 0.45 : 0.31));
    drill.prometheus().answer(CONTROL_GROUP, 0.30);

    DrillResult result = drill.run(experiment());

    assertThat(result.verdict()).isEqualTo(Verdict.DEVIATED);
    assertThat(result.reason())
        .isEqualTo(
            "hypothesis broken while the faults were on, first at +20.0s: error_ratio 0.001 <="
                + " 0.01, p95 0.45 (control 0.3) outside delta <= 0.05 vs control, burn_rate 1 <="
                + " 100; recovered 0.0s after the rollback");
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(node -> texts.add(node.asText()));
    return texts;
  }
}
