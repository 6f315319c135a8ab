package dev.firedrill.format;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Expected strings are what Go's strconv, fmt and encoding/json print for the same float64 (and,
 * for the API's values, what Prometheus 2.42 answered).
 */
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

  @Test
  void sampleValuesSwitchToExponentsBelowOneMillionthAndFromOneE21() {
    assertThat(GoFloat.sampleValue(5)).isEqualTo("5");
    assertThat(GoFloat.sampleValue(0.1 * 3)).isEqualTo("0.30000000000000004");
    assertThat(GoFloat.sampleValue(1e-7)).isEqualTo("1e-07");
    assertThat(GoFloat.sampleValue(1e-6)).isEqualTo("0.000001");
    assertThat(GoFloat.sampleValue(1.5e22)).isEqualTo("1.5e+22");
    assertThat(GoFloat.sampleValue(1e20)).isEqualTo("100000000000000000000");
    assertThat(GoFloat.sampleValue(-2.5)).isEqualTo("-2.5");
    assertThat(GoFloat.sampleValue(0)).isEqualTo("0");
    assertThat(GoFloat.sampleValue(-0.0)).isEqualTo("-0");
  }

  @Test
  void specialValuesAreSpelledAsGoSpellsThem() {
    assertThat(GoFloat.sampleValue(Double.NaN)).isEqualTo("NaN");
    assertThat(GoFloat.sampleValue(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
    assertThat(GoFloat.sampleValue(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
    assertThat(GoFloat.shortestE(Double.NaN)).isEqualTo("NaN");
  }

  @Test
  void digitsAreTheShortestThatReadBackWhereJava17PrintsMore() {
    assertThat(GoFloat.shortestF(2.82879384806159E17)).isEqualTo("282879384806159000");
    assertThat(GoFloat.shortestE(1e23)).isEqualTo("1e+23");
    assertThat(GoFloat.shortestE(8.41e21)).isEqualTo("8.41e+21");
    assertThat(GoFloat.shortestE(Double.MIN_VALUE)).isEqualTo("5e-324");
    assertThat(GoFloat.shortestF(123456789012345678.0)).isEqualTo("123456789012345680");
  }

  @Test
  void alertValuesUseTheExponentFormWithTwoExponentDigits() {
    assertThat(GoFloat.shortestE(5)).isEqualTo("5e+00");
    assertThat(GoFloat.shortestE(1500)).isEqualTo("1.5e+03");
    assertThat(GoFloat.shortestE(-0.25)).isEqualTo("-2.5e-01");
    assertThat(GoFloat.shortestE(0)).isEqualTo("0e+00");
    assertThat(GoFloat.shortestE(1e100)).isEqualTo("1e+100");
  }

  @Test
  void jsonNumbersShortenANegativeExponentAsEncodingJsonDoes() {
    assertThat(GoFloat.jsonNumber(5e-7)).isEqualTo("5e-7");
    assertThat(GoFloat.jsonNumber(1.5e-10)).isEqualTo("1.5e-10");
    assertThat(GoFloat.jsonNumber(1e21)).isEqualTo("1e+21");
    assertThat(GoFloat.jsonNumber(0.000761881)).isEqualTo("0.000761881");
    assertThat(GoFloat.jsonNumber(1700000000.5)).isEqualTo("1700000000.5");
    assertThat(GoFloat.jsonNumber(0)).isEqualTo("0");
  }

  @Test
  void labelValuesAreReadAsParseFloatReadsThem() {
    assertThat(GoFloat.parse("0.25")).isEqualTo(0.25);
    assertThat(GoFloat.parse("+Inf")).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(GoFloat.parse("-infinity")).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(GoFloat.parse("NaN")).isNaN();
    assertThat(GoFloat.parse("1e3")).isEqualTo(1000.0);
    assertThat(GoFloat.parse("1d")).isNull();
    assertThat(GoFloat.parse(" 1")).isNull();
    assertThat(GoFloat.parse("")).isNull();
  }

  @Test
  void zeroKeepsItsSignInEveryForm() {
    assertThat(GoFloat.shortestF(-0.0)).isEqualTo("-0");
    assertThat(GoFloat.shortestE(-0.0)).isEqualTo("-0e+00");
    assertThat(GoFloat.sprint(-0.0)).isEqualTo("-0");
    assertThat(GoFloat.sprint(0)).isEqualTo("0");
  }
}
