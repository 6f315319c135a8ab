package dev.firedrill.promql.fn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.firedrill.promql.model.PromqlException;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class RangeFunctionsTest {

  private static final double[] NONE = {};
  private static final long MINUTE_MS = 60_000;

  /** Samples at 30 s, 90 s, 150 s, ... in the range (0, 5m]. */
  private static OptionalDouble overFiveMinutes(String name, double... values) {
    long[] t = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      t[i] = 30_000 + i * MINUTE_MS;
    }
    return RangeFunctions.apply(name, t, values, 0, values.length, 0, 5 * MINUTE_MS, NONE);
  }

  private static OptionalDouble window(String name, double[] scalarArgs, double... values) {
    long[] t = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      t[i] = i * 10_000L;
    }
    return RangeFunctions.apply(
        name, t, values, 0, values.length, -10_000, values.length * 10_000L, scalarArgs);
  }

  private static OptionalDouble window(String name, double... values) {
    return window(name, NONE, values);
  }

  @Test
  void increaseExtrapolatesHalfAGapToEachBoundary() {
    // 40 over 240 s of samples, 30 s short of each boundary: 40 * 300 / 240.
    assertThat(overFiveMinutes("increase", 10, 20, 30, 40, 50)).hasValue(50);
  }

  @Test
  void rateIsTheIncreasePerSecondOfTheRange() {
    assertThat(overFiveMinutes("rate", 10, 20, 30, 40, 50))
        .hasValueCloseTo(50.0 / 300, within(1e-15));
  }

  @Test
  void increaseAddsTheValueBeforeACounterReset() {
    // 25 - 10, plus the 20 lost when the counter fell to 5: 35 * 300 / 240.
    assertThat(overFiveMinutes("increase", 10, 20, 5, 15, 25)).hasValue(43.75);
  }

  @Test
  void deltaTakesTheDropAtFaceValue() {
    assertThat(overFiveMinutes("delta", 10, 20, 5, 15, 25)).hasValue(18.75);
  }

  @Test
  void increaseStopsExtrapolatingWhereTheCounterWouldBeZero() {
    // From 2 at 40 per 240 s, zero was 12 s before the first sample, not 30: 40 * (240 + 12 + 30) /
    // 240.
    assertThat(overFiveMinutes("increase", 2, 12, 22, 32, 42)).hasValue(47);
  }

  @Test
  void deltaExtrapolatesBelowZero() {
    assertThat(overFiveMinutes("delta", 2, 12, 22, 32, 42)).hasValue(50);
  }

  @Test
  void aGapLongerThanOnePointOneIntervalsExtrapolatesHalfAnInterval() {
    long[] t = {150_000, 210_000, 270_000};
    double[] v = {100, 110, 120};
    // 150 s to the start exceeds 66 s: half of the 60 s interval instead; 30 s to the end is kept.
    assertThat(RangeFunctions.apply("increase", t, v, 0, 3, 0, 5 * MINUTE_MS, NONE)).hasValue(30);
  }

  @Test
  void theZeroPointCanBringTheStartWithinTheThreshold() {
    long[] t = {150_000, 210_000, 270_000};
    double[] v = {10, 20, 30};
    // Zero lies 60 s before the first sample, under the 66 s threshold: 20 * (120 + 60 + 30) / 120.
    assertThat(RangeFunctions.apply("increase", t, v, 0, 3, 0, 5 * MINUTE_MS, NONE)).hasValue(35);
  }

  @Test
  void ratesNeedTwoSamples() {
    assertThat(overFiveMinutes("rate", 10)).isEmpty();
    assertThat(overFiveMinutes("increase", 10)).isEmpty();
    assertThat(overFiveMinutes("delta", 10)).isEmpty();
    assertThat(overFiveMinutes("irate", 10)).isEmpty();
    assertThat(overFiveMinutes("idelta", 10)).isEmpty();
    assertThat(overFiveMinutes("deriv", 10)).isEmpty();
  }

  @Test
  void theWindowIsTheSliceFromTo() {
    long[] t = {0, 30_000, 90_000, 150_000, 210_000, 270_000, 330_000};
    double[] v = {999, 10, 20, 30, 40, 50, 999};
    assertThat(RangeFunctions.apply("increase", t, v, 1, 6, 0, 5 * MINUTE_MS, NONE)).hasValue(50);
    assertThat(RangeFunctions.apply("count_over_time", t, v, 1, 6, 0, 5 * MINUTE_MS, NONE))
        .hasValue(5);
  }

  @Test
  void anEmptyWindowGivesNoSample() {
    assertThat(
            RangeFunctions.apply(
                "count_over_time", new long[0], new double[0], 0, 0, 0, 1000, NONE))
        .isEmpty();
  }

  @Test
  void irateUsesTheLastTwoSamples() {
    assertThat(overFiveMinutes("irate", 0, 20, 50)).hasValue(0.5);
  }

  @Test
  void irateAfterAResetCountsFromZero() {
    assertThat(overFiveMinutes("irate", 10, 20, 5)).hasValueCloseTo(5.0 / 60, within(1e-15));
  }

  @Test
  void ideltaIsTheLastDifference() {
    assertThat(overFiveMinutes("idelta", 10, 20, 5)).hasValue(-15);
  }

  @Test
  void derivIsTheSlopePerSecond() {
    assertThat(window("deriv", 1, 3, 5)).hasValueCloseTo(0.2, within(1e-15));
  }

  @Test
  void derivOfAConstantIsZeroAndOfAnInfiniteConstantNaN() {
    assertThat(window("deriv", 4, 4, 4)).hasValue(0);
    assertThat(window("deriv", Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY))
        .hasValue(Double.NaN);
  }

  @Test
  void predictLinearExtendsTheLineFromTheEvaluationTime() {
    long[] t = {0, 10_000, 20_000};
    double[] v = {1, 3, 5};
    // At 30 s the line is at 7; 60 s later at 19.
    assertThat(RangeFunctions.apply("predict_linear", t, v, 0, 3, 0, 30_000, new double[] {60}))
        .hasValueCloseTo(19.0, within(1e-12));
    // Under an offset the evaluation time is later than the range: at 90 s the line is at 19, 60 s
    // later at 31.
    assertThat(
            RangeFunctions.apply(
                "predict_linear", t, v, 0, 3, 0, 30_000, 90_000, new double[] {60}))
        .hasValueCloseTo(31.0, within(1e-12));
  }

  @Test
  void predictLinearOfAConstantIsTheConstant() {
    assertThat(window("predict_linear", new double[] {3600}, 4, 4, 4)).hasValue(4);
  }

  @Test
  void holtWintersSmoothsValueAndTrend() {
    // s=1 b=2; s=.5*3+.5*(1+2)=3; b=.5*2+.5*2=2, s=.5*7+.5*(3+2)=6; b=.5*3+.5*2=2.5,
    // s=.5*8+.5*(6+2.5)=8.25.
    assertThat(window("holt_winters", new double[] {0.5, 0.5}, 1, 3, 7, 8)).hasValue(8.25);
  }

  @Test
  void holtWintersNeedsTwoSamples() {
    assertThat(window("holt_winters", new double[] {0.5, 0.5}, 1)).isEmpty();
  }

  @Test
  void holtWintersRefusesFactorsOutsideZeroToOne() {
    assertThatThrownBy(() -> window("holt_winters", new double[] {1, 0.5}, 1, 2))
        .isInstanceOf(PromqlException.class)
        .hasMessage("invalid smoothing factor. Expected: 0 < sf < 1, got: 1.000000");
    assertThatThrownBy(() -> window("holt_winters", new double[] {0.5, 0}, 1, 2))
        .isInstanceOf(PromqlException.class)
        .hasMessage("invalid trend factor. Expected: 0 < tf < 1, got: 0.000000");
    assertThatThrownBy(
            () -> window("holt_winters", new double[] {Double.NEGATIVE_INFINITY, 0.5}, 1))
        .hasMessage("invalid smoothing factor. Expected: 0 < sf < 1, got: -Inf");
  }

  @Test
  void holtWintersChecksFactorsEvenWithOneSample() {
    assertThatThrownBy(() -> window("holt_winters", new double[] {0.5, 2}, 1))
        .hasMessage("invalid trend factor. Expected: 0 < tf < 1, got: 2.000000");
  }

  @Test
  void resetsCountsDecreases() {
    assertThat(window("resets", 5, 3, 4, 1, 1)).hasValue(2);
  }

  @Test
  void changesTreatsNaNAfterNaNAsNoChange() {
    assertThat(window("changes", 1, 1, Double.NaN, Double.NaN, 2)).hasValue(2);
  }

  @Test
  void sumAndAvgOverTime() {
    assertThat(window("sum_over_time", 1, 2, 3, 4)).hasValue(10);
    assertThat(window("avg_over_time", 1, 2, 3, 4)).hasValue(2.5);
  }

  @Test
  void sumOverTimeCompensatesForCancellation() {
    assertThat(window("sum_over_time", 1e100, 1, -1e100)).hasValue(1);
  }

  @Test
  void sumAndAvgOverTimeKeepAnInfinity() {
    assertThat(window("sum_over_time", Double.POSITIVE_INFINITY, 1))
        .hasValue(Double.POSITIVE_INFINITY);
    assertThat(window("avg_over_time", Double.POSITIVE_INFINITY, 1, Double.POSITIVE_INFINITY))
        .hasValue(Double.POSITIVE_INFINITY);
    assertThat(window("avg_over_time", 1, Double.NEGATIVE_INFINITY, 1))
        .hasValue(Double.NEGATIVE_INFINITY);
  }

  @Test
  void avgOverTimeOfOppositeInfinitiesOrANaNIsNaN() {
    assertThat(window("avg_over_time", Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY))
        .hasValue(Double.NaN);
    assertThat(window("avg_over_time", Double.POSITIVE_INFINITY, Double.NaN)).hasValue(Double.NaN);
  }

  @Test
  void minAndMaxOverTimeSkipNaN() {
    assertThat(window("min_over_time", Double.NaN, 2, 1)).hasValue(1);
    assertThat(window("max_over_time", Double.NaN, 2, 1)).hasValue(2);
    assertThat(window("max_over_time", 1, Double.NaN, 3)).hasValue(3);
    assertThat(window("min_over_time", Double.NaN, Double.NaN)).hasValue(Double.NaN);
  }

  @Test
  void countLastAndPresentOverTime() {
    assertThat(window("count_over_time", 7, 8, 9)).hasValue(3);
    assertThat(window("last_over_time", 7, 8, 9)).hasValue(9);
    assertThat(window("present_over_time", 7, 8, 9)).hasValue(1);
  }

  @Test
  void stddevAndStdvarOverTimeArePopulationStatistics() {
    assertThat(window("stdvar_over_time", 2, 4, 4, 4, 5, 5, 7, 9)).hasValue(4);
    assertThat(window("stddev_over_time", 2, 4, 4, 4, 5, 5, 7, 9)).hasValue(2);
  }

  @Test
  void quantileOverTimeInterpolatesBetweenRanks() {
    assertThat(window("quantile_over_time", new double[] {0.5}, 4, 1, 3, 2)).hasValue(2.5);
  }

  @Test
  void absentOverTimeIsLeftToTheEvaluator() {
    assertThat(RangeFunctions.isRangeFunction("rate")).isTrue();
    assertThat(RangeFunctions.isRangeFunction("absent_over_time")).isFalse();
    assertThatThrownBy(() -> window("absent_over_time", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not a range vector function: absent_over_time");
  }

  @Test
  void aMissingScalarArgumentIsNamed() {
    assertThatThrownBy(() -> window("predict_linear", 1, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("predict_linear takes 1 scalar argument(s), got 0");
  }
}
