package dev.firedrill.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** Numbers as every message, plan and report prints them. */
class NumbersTest {

  @Test
  void wholeNumbersPrintWithoutADecimalPointUpToTheirLimit() {
    assertThat(Numbers.format(0)).isEqualTo("0");
    assertThat(Numbers.format(-3)).isEqualTo("-3");
    assertThat(Numbers.format(999_999_999_999_999d)).isEqualTo("999999999999999");
    // From 1e15 on, a whole number is as long as an exponent is short.
    assertThat(Numbers.format(1e15)).isEqualTo("1.00e+15");
    assertThat(Numbers.format(-1.5e15)).isEqualTo("-1.50e+15");
  }

  @Test
  void fractionsKeepFourSignificantDigitsAndNoTrailingZeros() {
    assertThat(Numbers.format(0.125)).isEqualTo("0.125");
    assertThat(Numbers.format(-0.5)).isEqualTo("-0.5");
    assertThat(Numbers.format(1.0 / 3)).isEqualTo("0.3333");
    assertThat(Numbers.format(1234.5678)).isEqualTo("1235");
    assertThat(Numbers.format(0.0001)).isEqualTo("0.0001");
    assertThat(Numbers.format(0.00001)).isEqualTo("1.00e-05");
  }

  @Test
  void notANumberAndTheInfinitiesPrintAsPrometheusWritesThem() {
    assertThat(Numbers.format(Double.NaN)).isEqualTo("NaN");
    assertThat(Numbers.format(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
    assertThat(Numbers.format(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
  }

  @Test
  void rangesPrintAsPeopleWriteThem() {
    assertThat(Numbers.rangeText(OptionalDouble.of(0.9), OptionalDouble.of(1))).isEqualTo("0.9..1");
    assertThat(Numbers.rangeText(OptionalDouble.empty(), OptionalDouble.of(0.005)))
        .isEqualTo("<= 0.005");
    assertThat(Numbers.rangeText(OptionalDouble.of(0.99), OptionalDouble.empty()))
        .isEqualTo(">= 0.99");
  }

  @Test
  void sharesPrintAsPercentages() {
    assertThat(Shares.words(0.2)).isEqualTo("20%");
    assertThat(Shares.words(0.333)).isEqualTo("33.3%");
  }
}
