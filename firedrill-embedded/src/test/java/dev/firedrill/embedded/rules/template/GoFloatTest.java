package dev.firedrill.embedded.rules.template;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Go's strconv.FormatFloat outputs, as Go 1.x prints them. */
class GoFloatTest {

  @Test
  void shortestExponentFormIsWhatPrometheussApiWritesForAnAlertsValue() {
    assertThat(GoFloat.shortestE(1)).isEqualTo("1e+00");
    assertThat(GoFloat.shortestE(1.5)).isEqualTo("1.5e+00");
    assertThat(GoFloat.shortestE(-0.000025)).isEqualTo("-2.5e-05");
    assertThat(GoFloat.shortestE(0.1)).isEqualTo("1e-01");
    assertThat(GoFloat.shortestE(1e100)).isEqualTo("1e+100");
    assertThat(GoFloat.shortestE(0)).isEqualTo("0e+00");
    assertThat(GoFloat.shortestE(Double.NaN)).isEqualTo("NaN");
    assertThat(GoFloat.shortestE(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
  }

  @Test
  void sprintSwitchesToAnExponentBelow1eMinus4AndFrom1e6() {
    assertThat(GoFloat.sprint(123456)).isEqualTo("123456");
    assertThat(GoFloat.sprint(1234567)).isEqualTo("1.234567e+06");
    assertThat(GoFloat.sprint(0.0001)).isEqualTo("0.0001");
    assertThat(GoFloat.sprint(0.00001)).isEqualTo("1e-05");
    assertThat(GoFloat.sprint(0.1 + 0.2)).isEqualTo("0.30000000000000004");
    assertThat(GoFloat.sprint(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
  }

  @Test
  void fixedPrecisionRoundsTheExactBinaryValueHalfToEven() {
    assertThat(GoFloat.format(2.675, 'f', 2)).isEqualTo("2.67");
    assertThat(GoFloat.format(0.125, 'f', 2)).isEqualTo("0.12");
    assertThat(GoFloat.format(1234.5678, 'g', 4)).isEqualTo("1235");
    assertThat(GoFloat.format(1, 'g', 4)).isEqualTo("1");
    assertThat(GoFloat.format(0.5, 'e', 3)).isEqualTo("5.000e-01");
  }
}
