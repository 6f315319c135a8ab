package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.firedrill.experiment.Targets;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.prometheus.QueryResult;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.time.VirtualClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
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

  @Test
  void withoutARemainingBudgetQueryThereIsNoBudgetReading() {
    PrometheusMeasurer measurer =
        new PrometheusMeasurer(
            q -> sample(0.5), new ScriptedDrill().experiment().build(), new VirtualClock(AT));
    assertThat(measurer.remainingBudget()).isEmpty();
  }
}
