package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.firedrill.experiment.Control;
import dev.firedrill.experiment.Missing;
import dev.firedrill.experiment.Sli;
import dev.firedrill.experiment.SteadyState;
import dev.firedrill.experiment.Targets;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.prometheus.QueryResult;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.time.VirtualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * One measurement of {@link ScriptedDrill#experiment()}'s SLI and burn-rate guard, against answers
 * Prometheus may give: each becomes one reading whose text names the SLI, its value or what went
 * wrong.
 */
class PrometheusMeasurerTest {

  private static final Instant AT = ScriptedDrill.START;

  private static QueryResult sample(double value) {
    return new QueryResult.Vector(List.of(new QueryResult.Sample(Map.of(), AT, value)));
  }

  /** Measures once; the SLI's query answers {@code sli}, the guard's 0.001. */
  private static Measurement measure(Function<String, QueryResult> sli) throws Exception {
    PrometheusMeasurer measurer =
        new PrometheusMeasurer(
            promql -> {
              if (promql.equals(ScriptedDrill.ERROR_RATIO)) {
                QueryResult result = sli.apply(promql);
                if (result == null) {
                  throw new PrometheusException("Prometheus at http://127.0.0.1:9 is unreachable");
                }
                return result;
              }
              return sample(0.001);
            },
            new ScriptedDrill().experiment().build(),
            new VirtualClock(AT));
    return measurer.measure(Targets.BEFORE_INJECTION);
  }

  private static String sliText(Function<String, QueryResult> sli) throws Exception {
    return measure(sli).readings().findFirst().orElseThrow().text();
  }

  @Test
  void anSliAndTheBurnRateGuardAreReadTogether() throws Exception {
    Measurement measurement = measure(q -> sample(0.02));

    assertThat(measurement.at()).isEqualTo(AT);
    assertThat(measurement.text())
        .isEqualTo("error_ratio 0.02 outside <= 0.01, burn_rate 1 <= 100");
    Reading burn = measurement.burnRate().orElseThrow();
    // The error ratio over what the objective allows: 0.001 / (1 - 0.999).
    assertThat(burn.value().getAsDouble()).isCloseTo(1.0, within(1e-9));
    assertThat(burn.status()).isEqualTo(Reading.Status.OK);
    assertThat(burn.detail()).isEqualTo("error ratio 0.001 against an objective of 99.9%");
  }

  @Test
  void eachAnswerThatIsNotOneNumberSaysWhatItWas() throws Exception {
    assertThat(sliText(q -> null))
        .isEqualTo("error_ratio error: Prometheus at http://127.0.0.1:9 is unreachable");
    assertThat(sliText(q -> new QueryResult.Vector(List.of())))
        .isEqualTo("error_ratio no data (empty result for errors / requests)");
    assertThat(sliText(q -> sample(Double.NaN)))
        .isEqualTo("error_ratio no data (NaN for errors / requests, nothing to divide by)");
    assertThat(sliText(q -> new QueryResult.Scalar(AT, 0.004)))
        .isEqualTo("error_ratio 0.004 <= 0.01");
    assertThat(
            sliText(
                q ->
                    new QueryResult.Vector(
                        List.of(
                            new QueryResult.Sample(Map.of("instance", "b"), AT, 1),
                            new QueryResult.Sample(Map.of("instance", "a"), AT, 2)))))
        .isEqualTo(
            "error_ratio error: expected one sample or a scalar, got 2 series:"
                + " {instance=\"b\"}, {instance=\"a\"}; aggregate them, for example with sum()");
    assertThat(sliText(q -> new QueryResult.Matrix(List.of())))
        .isEqualTo("error_ratio error: expected one sample or a scalar, got a range vector");
    assertThat(sliText(q -> new QueryResult.Text(AT, "x")))
        .isEqualTo("error_ratio error: expected one sample or a scalar, got a string");
  }

  @Test
  void aBugInAQueryReachesTheDrillAsItself() {
    assertThatThrownBy(
            () ->
                measure(
                    q -> {
                      throw new IllegalStateException("bug in the client");
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("bug in the client");
  }

  /** p95 of the two pods against the other pods'; the queries as run once those were selected. */
  private static final String GROUP = "p95{pod=~\"a|b\"}";

  private static final String CONTROL = "p95{pod!~\"a|b\"}";

  /**
   * Measures once an experiment whose one SLI, p95, has no bounds of its own and {@code control}
   * against the control group; {@code answers} maps each query to its answer (null: unreachable).
   */
  private Reading controlled(Control control, Map<String, QueryResult> answers) throws Exception {
    Sli p95 =
        new Sli(
            "p95",
            "p95{pod=~\"{{ targets }}\"}",
            OptionalDouble.empty(),
            OptionalDouble.empty(),
            Missing.FAIL,
            Optional.of(control));
    PrometheusMeasurer measurer =
        new PrometheusMeasurer(
            promql -> {
              asked.add(promql);
              if (!answers.containsKey(promql)) {
                return sample(0.001);
              }
              QueryResult result = answers.get(promql);
              if (result == null) {
                throw new PrometheusException("Prometheus at http://127.0.0.1:9 is unreachable");
              }
              return result;
            },
            new ScriptedDrill()
                .experiment()
                .steadyState(new SteadyState(Duration.ofSeconds(5), List.of(p95)))
                .build(),
            new VirtualClock(AT));
    return measurer.measure(Targets.of(List.of("a", "b"))).readings().findFirst().orElseThrow();
  }

  /** The queries {@link #controlled} sent, in order. */
  private final List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();

  private static Control delta(double max) {
    return new Control(
        "p95{pod!~\"{{ targets }}\"}",
        OptionalDouble.empty(),
        OptionalDouble.of(max),
        OptionalDouble.empty(),
        OptionalDouble.empty());
  }

  private static Control ratio(double max) {
    return new Control(
        "p95{pod!~\"{{ targets }}\"}",
        OptionalDouble.empty(),
        OptionalDouble.empty(),
        OptionalDouble.empty(),
        OptionalDouble.of(max));
  }

  @Test
  void anSliWithAControlGroupIsOneReadingOfBothValuesHeldToTheDelta() throws Exception {
    Reading within = controlled(delta(0.05), Map.of(GROUP, sample(0.34), CONTROL, sample(0.30)));
    assertThat(within.status()).isEqualTo(Reading.Status.OK);
    assertThat(within.value()).hasValue(0.34);
    assertThat(within.control()).hasValue(0.30);
    assertThat(within.text()).isEqualTo("p95 0.34 (control 0.3) delta <= 0.05 vs control");

    Reading outside = controlled(delta(0.05), Map.of(GROUP, sample(0.36), CONTROL, sample(0.30)));
    assertThat(outside.status()).isEqualTo(Reading.Status.BREACH);
    assertThat(outside.text()).isEqualTo("p95 0.36 (control 0.3) outside delta <= 0.05 vs control");
  }

  @Test
  void anSliWithoutDataIsNoDataAndItsControlIsNotAsked() throws Exception {
    Reading reading = controlled(delta(0.05), Map.of(GROUP, new QueryResult.Vector(List.of())));

    assertThat(reading.text()).isEqualTo("p95 no data (empty result for " + GROUP + ")");
    assertThat(reading.control()).isEmpty();
    assertThat(asked).containsExactlyInAnyOrder(GROUP, ScriptedDrill.GUARD_ERROR_RATIO);
  }

  @Test
  void aControlWithoutDataOrThatFailsMakesTheReadingSaySoOfTheControl() throws Exception {
    Reading empty =
        controlled(
            delta(0.05), Map.of(GROUP, sample(0.34), CONTROL, new QueryResult.Vector(List.of())));
    assertThat(empty.status()).isEqualTo(Reading.Status.NO_DATA);
    assertThat(empty.value()).isEmpty();
    assertThat(empty.text()).isEqualTo("p95 no data (control: empty result for " + CONTROL + ")");
    assertThat(empty.expectation()).isEqualTo("delta <= 0.05 vs control");

    Map<String, QueryResult> unreachable = new java.util.HashMap<>();
    unreachable.put(GROUP, sample(0.34));
    unreachable.put(CONTROL, null);
    Reading failed = controlled(delta(0.05), unreachable);
    assertThat(failed.status()).isEqualTo(Reading.Status.ERROR);
    assertThat(failed.text())
        .isEqualTo("p95 error: control: Prometheus at http://127.0.0.1:9 is unreachable");
  }

  @Test
  void aControlOfZeroIsNoDataForARatioAndAValueForADelta() throws Exception {
    Reading ratio = controlled(ratio(1.2), Map.of(GROUP, sample(0.1), CONTROL, sample(0)));
    assertThat(ratio.status()).isEqualTo(Reading.Status.NO_DATA);
    assertThat(ratio.text())
        .isEqualTo(
            "p95 no data (control is 0 for " + CONTROL + ", no ratio to hold to its bounds)");
    assertThat(ratio.expectation()).isEqualTo("ratio <= 1.2 vs control");

    Reading delta = controlled(delta(0.05), Map.of(GROUP, sample(0.01), CONTROL, sample(0)));
    assertThat(delta.status()).isEqualTo(Reading.Status.OK);
    assertThat(delta.control()).hasValue(0.0);

    Reading held = controlled(ratio(1.2), Map.of(GROUP, sample(0.36), CONTROL, sample(0.30)));
    assertThat(held.status()).isEqualTo(Reading.Status.OK);
    assertThat(held.text()).isEqualTo("p95 0.36 (control 0.3) ratio <= 1.2 vs control");
  }

  /**
   * A drill interrupted while it measures cancels the queries it waits for, the burn-rate guard's
   * too: their threads are interrupted, not left to run to their own timeouts.
   */
  @Test
  void anInterruptWhileMeasuringCancelsEveryQuery() throws Exception {
    java.util.concurrent.CountDownLatch asked = new java.util.concurrent.CountDownLatch(2);
    java.util.concurrent.CountDownLatch cancelled = new java.util.concurrent.CountDownLatch(2);
    List<String> interrupted = new java.util.concurrent.CopyOnWriteArrayList<>();
    PrometheusMeasurer measurer =
        new PrometheusMeasurer(
            promql -> {
              asked.countDown();
              try {
                new java.util.concurrent.CountDownLatch(1).await();
              } catch (InterruptedException e) {
                interrupted.add(promql);
                cancelled.countDown();
                Thread.currentThread().interrupt();
              }
              throw new PrometheusException("not answered");
            },
            new ScriptedDrill().experiment().build(),
            new VirtualClock(AT));
    java.util.concurrent.atomic.AtomicReference<Throwable> thrown =
        new java.util.concurrent.atomic.AtomicReference<>();
    Thread measuring =
        new Thread(
            () -> {
              try {
                measurer.measure(Targets.BEFORE_INJECTION);
              } catch (Throwable e) {
                thrown.set(e);
              }
            });
    measuring.start();
    asked.await();
    measuring.interrupt();
    measuring.join();

    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    assertThat(cancelled.await(30, java.util.concurrent.TimeUnit.SECONDS))
        .as("both queries' threads were interrupted")
        .isTrue();
    assertThat(interrupted)
        .containsExactlyInAnyOrder(ScriptedDrill.ERROR_RATIO, ScriptedDrill.GUARD_ERROR_RATIO);
  }

  @Test
  void anErrorInAQueryReachesTheDrillAsItself() {
    assertThatThrownBy(
            () ->
                measure(
                    q -> {
                      throw new AssertionError("broken client");
                    }))
        .isInstanceOf(AssertionError.class)
        .hasMessage("broken client");
  }

  @Test
  void aBurnRateExactlyAtTheGuardsMaximumIsWithinIt() throws Exception {
    // An objective of 50% allows an error ratio of 0.5: 0.5 is a burn rate of exactly 1.
    PrometheusMeasurer measurer =
        new PrometheusMeasurer(
            q -> sample(0.5),
            new ScriptedDrill()
                .experiment()
                .abort(
                    new dev.firedrill.experiment.Abort(
                        List.of(),
                        Optional.of(
                            new dev.firedrill.experiment.BurnRateGuard(
                                0.5,
                                Duration.ofDays(30),
                                "errors",
                                1,
                                Missing.FAIL,
                                Optional.empty())),
                        dev.firedrill.experiment.Abort.DEFAULT_PROBE_ERRORS,
                        Optional.empty()))
                .build(),
            new VirtualClock(AT));

    Reading burn = measurer.measure(Targets.BEFORE_INJECTION).burnRate().orElseThrow();
    assertThat(burn.value()).hasValue(1.0);
    assertThat(burn.status()).isEqualTo(Reading.Status.OK);
  }

  @Test
  void withoutARemainingBudgetQueryThereIsNoBudgetReading() {
    PrometheusMeasurer measurer =
        new PrometheusMeasurer(
            q -> sample(0.5), new ScriptedDrill().experiment().build(), new VirtualClock(AT));
    assertThat(measurer.remainingBudget()).isEmpty();
  }
}
