package dev.firedrill.testing;

import dev.firedrill.experiment.Control;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.Missing;
import dev.firedrill.experiment.Sli;
import dev.firedrill.experiment.SteadyState;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.DoubleFunction;

/**
 * A {@link ScriptedDrill} whose fault selects two pods and whose SLI {@code p95} compares them with
 * the other pods: {@code p95{pod=~"{{ targets }}"}} against the control {@code p95{pod!~"{{ targets
 * }}"}}, within a delta of 0.05, beside the drill's error_ratio.
 */
public final class ControlGroup {

  public static final String P95 = "p95{pod=~\"{{ targets }}\"}";
  public static final String P95_CONTROL = "p95{pod!~\"{{ targets }}\"}";

  /** The pods the fault selects. */
  public static final List<String> PODS = List.of("checkout-7d9f-a", "checkout-7d9f-b");

  /** Both queries before injection: the whole group. */
  public static final String WHOLE_GROUP = "p95{pod=~\".*\"}";

  /** The SLI's query as run after injection. */
  public static final String EXPERIMENT_GROUP = "p95{pod=~\"checkout-7d9f-a|checkout-7d9f-b\"}";

  /** The control query as run after injection. */
  public static final String CONTROL_GROUP = "p95{pod!~\"checkout-7d9f-a|checkout-7d9f-b\"}";

  private final ScriptedDrill drill;

  /**
   * Registers the fault {@code delete}, selecting {@link #PODS}; the whole group answers {@code
   * before} until the experiment and control groups exist.
   */
  public ControlGroup(ScriptedDrill drill, double before) {
    this.drill = drill;
    drill.fault("delete").selects(PODS.toArray(String[]::new));
    drill.prometheus().answer(WHOLE_GROUP, before);
  }

  /** What the two groups answer, in seconds since the drill began. */
  public ControlGroup groups(
      DoubleFunction<ScriptedPrometheus.Answer> experiment,
      DoubleFunction<ScriptedPrometheus.Answer> control) {
    drill.prometheus().answer(EXPERIMENT_GROUP, experiment);
    drill.prometheus().answer(CONTROL_GROUP, control);
    return this;
  }

  /** The drill's experiment with error_ratio and p95 every 5 s. */
  public Experiment experiment() {
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
}
