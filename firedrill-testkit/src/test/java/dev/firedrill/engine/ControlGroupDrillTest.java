package dev.firedrill.engine;

import static dev.firedrill.testing.ControlGroup.CONTROL_GROUP;
import static dev.firedrill.testing.ControlGroup.EXPERIMENT_GROUP;
import static dev.firedrill.testing.ControlGroup.WHOLE_GROUP;
import static dev.firedrill.testing.ScriptedPrometheus.value;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.testing.ControlGroup;
import dev.firedrill.testing.ScriptedDrill;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A drill whose SLI compares the pods the fault selected with the others over the same minutes: the
 * queries as run, in the journal, and the verdict against the control group.
 */
class ControlGroupDrillTest {

  private final ScriptedDrill drill = new ScriptedDrill();

  @Test
  void heldWhenBothGroupsRiseTogetherAndTheJournalHoldsTheQueriesAsRun() {
    // The morning's traffic lifts both groups alike: a fixed max would break, the delta holds.
    ControlGroup group =
        new ControlGroup(drill, 0.30)
            .groups(t -> value(0.30 + t / 100), t -> value(0.29 + t / 100));

    DrillResult result = drill.run(group.experiment());

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
    ControlGroup group =
        new ControlGroup(drill, 0.30)
            .groups(t -> value(t >= 20 && t < 60 ? 0.45 : 0.31), t -> value(0.30));

    DrillResult result = drill.run(group.experiment());

    assertThat(result.verdict()).isEqualTo(Verdict.DEVIATED);
    assertThat(result.reason())
        .isEqualTo(
            "hypothesis broken while the faults were on, first at +20.0s: error_ratio 0.001 <="
                + " 0.01, p95 0.45 (control 0.3) outside delta <= 0.05 vs control, burn_rate 1 <="
                + " 100; recovered 0.0s after the rollback");
  }

  @Test
  void aHalfDoneInjectionStillRecoversOnTheGroupsItSelected() {
    ControlGroup group = new ControlGroup(drill, 0.30).groups(t -> value(0.31), t -> value(0.30));
    drill.faults().get(0).failsToInject();

    DrillResult result = drill.run(group.experiment());

    JsonNode asRun = result.journal().json().get("queries_as_run");
    assertThat(asRun).hasSize(2);
    assertThat(texts(asRun.get(1).get("targets"))).isEqualTo(ControlGroup.PODS);
    JsonNode last = result.journal().json().get("measurements");
    JsonNode recovery = last.get(last.size() - 1);
    assertThat(recovery.get("phase").asText()).isEqualTo("after");
    assertThat(recovery.get("readings").get(1).get("value").asDouble()).isEqualTo(0.31);
    assertThat(recovery.get("readings").get(1).get("control").asDouble()).isEqualTo(0.30);
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(node -> texts.add(node.asText()));
    return texts;
  }
}
