package dev.firedrill.experiment;

import static dev.firedrill.testing.MinimalExperiment.TEXT;
import static dev.firedrill.testing.MinimalExperiment.load;
import static dev.firedrill.testing.MinimalExperiment.problems;
import static dev.firedrill.testing.MinimalExperiment.replace;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** An SLI's control query and its bounds against the control group, as the loader reads them. */
class ControlLoaderTest {

  private static final String SLI = "      query: up\n      max: 0.005\n";

  private static String sli(String lines) {
    return replace(TEXT, SLI, lines);
  }

  @Test
  void readsTheControlQueryAndItsBounds() {
    Experiment experiment =
        load(
            sli(
                """
                      query: p95{pod=~"{{ targets }}"}
                      control: p95{pod!~"{{ targets }}"}
                      max: 0.5
                      max_delta: 0.05
                      min_ratio: 0.8
                      max_ratio: 1.2
                """));
    Sli sli = experiment.steadyState().slis().get(0);
    assertThat(sli.control())
        .contains(
            new Control(
                "p95{pod!~\"{{ targets }}\"}",
                OptionalDouble.empty(),
                OptionalDouble.of(0.05),
                OptionalDouble.of(0.8),
                OptionalDouble.of(1.2)));
    assertThat(sli.rangeText()).isEqualTo("<= 0.5, delta <= 0.05, ratio 0.8..1.2 vs control");
  }

  @Test
  void aControlSliNeedsNoRangeOfItsOwn() {
    Sli sli =
        load(sli("      query: up\n      control: up\n      max_delta: 0.01\n"))
            .steadyState()
            .slis()
            .get(0);
    assertThat(sli.min()).isEmpty();
    assertThat(sli.max()).isEmpty();
    assertThat(sli.control().map(Control::maxDelta)).contains(OptionalDouble.of(0.01));
  }

  @Test
  void aControlWithoutBoundsIsRefused() {
    assertThat(problems(sli("      query: up\n      control: up\n")))
        .containsExactly(
            "exp.yaml: /steady_state/slis/0/max_delta: missing; a control query needs max_delta,"
                + " min_delta, max_ratio or min_ratio: the most the experiment group may differ"
                + " from the control group (line 7, column 7)");
  }

  @Test
  void boundsWithoutAControlAreRefused() {
    assertThat(problems(sli("      query: up\n      max: 1\n      max_ratio: 1.2\n")))
        .containsExactly(
            "exp.yaml: /steady_state/slis/0/max_ratio: expected a control query beside query: the"
                + " bound compares the SLI with its control group, such as control: ..."
                + " pod!~\"{{ targets }}\" (line 10, column 7)");
  }

  @Test
  void minAboveMaxOfEachPair() {
    assertThat(
            problems(
                sli(
                    "      query: up\n      control: up\n      min_delta: 0.2\n      max_delta: 0.1\n"
                        + "      min_ratio: 2\n      max_ratio: 1\n")))
        .containsExactly(
            "exp.yaml: /steady_state/slis/0/min_delta: expected min_delta <= max_delta, got"
                + " min_delta 0.2 above max_delta 0.1 (line 10, column 7)",
            "exp.yaml: /steady_state/slis/0/min_ratio: expected min_ratio <= max_ratio, got"
                + " min_ratio 2 above max_ratio 1 (line 12, column 7)");
  }

  @Test
  void aBoundThatIsNoNumberSaysWhatWasExpected() {
    assertThat(problems(sli("      query: up\n      control: up\n      max_delta: lots\n")))
        .hasSize(1)
        .first()
        .asString()
        .startsWith("exp.yaml: /steady_state/slis/0/max_delta: expected a number");
  }

  @Test
  void thePlaceholderOutsideAMatcherIsRefusedInQueryAndControl() {
    String expected =
        "expected {{ targets }} only as the whole value of a regex matcher, such as"
            + " pod=~\"{{ targets }}\" or pod!~\"{{ targets }}\"";
    assertThat(
            problems(
                sli(
                    "      query: up{pod=\"{{ targets }}\"}\n"
                        + "      control: up{pod=~\"x-{{ targets }}\"}\n"
                        + "      max_delta: 0.1\n")))
        .containsExactly(
            "exp.yaml: /steady_state/slis/0/query: " + expected + " (line 8, column 7)",
            "exp.yaml: /steady_state/slis/0/control: " + expected + " (line 9, column 7)");
  }

  @Test
  void anSliWithoutAControlIsUnchanged() {
    assertThat(load(TEXT).steadyState().slis().get(0).control()).isEqualTo(Optional.empty());
  }
}
