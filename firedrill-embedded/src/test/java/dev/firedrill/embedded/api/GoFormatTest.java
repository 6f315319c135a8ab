package dev.firedrill.embedded.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Expected strings are what Go's strconv and encoding/json print for the same float64 (and what Prometheus 2.42 answered). */
class GoFormatTest {

  @Test
  void sampleValuesSwitchToExponentsBelowOneMillionthAndFromOneE21() {
    assertThat(GoFormat.sampleValue(5)).isEqualTo("5");
    assertThat(GoFormat.sampleValue(0.1 * 3)).isEqualTo("0.30000000000000004");
    assertThat(GoFormat.sampleValue(1e-7)).isEqualTo("1e-07");
    assertThat(GoFormat.sampleValue(1e-6)).isEqualTo("0.000001");
    assertThat(GoFormat.sampleValue(1.5e22)).isEqualTo("1.5e+22");
    assertThat(GoFormat.sampleValue(1e20)).isEqualTo("100000000000000000000");
    assertThat(GoFormat.sampleValue(-2.5)).isEqualTo("-2.5");
    assertThat(GoFormat.sampleValue(0)).isEqualTo("0");
    assertThat(GoFormat.sampleValue(-0.0)).isEqualTo("-0");
  }

  @Test
  void specialValuesAreSpelledAsGoSpellsThem() {
    assertThat(GoFormat.sampleValue(Double.NaN)).isEqualTo("NaN");
    assertThat(GoFormat.sampleValue(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
    assertThat(GoFormat.sampleValue(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
    assertThat(GoFormat.formatE(Double.NaN)).isEqualTo("NaN");
  }

  @Test
  void digitsAreTheShortestThatReadBackWhereJava17PrintsMore() {
    assertThat(GoFormat.formatF(2.82879384806159E17)).isEqualTo("282879384806159000");
    assertThat(GoFormat.formatE(1e23)).isEqualTo("1e+23");
    assertThat(GoFormat.formatE(8.41e21)).isEqualTo("8.41e+21");
    assertThat(GoFormat.formatE(Double.MIN_VALUE)).isEqualTo("5e-324");
    assertThat(GoFormat.formatF(123456789012345678.0)).isEqualTo("123456789012345680");
  }

  @Test
  void alertValuesUseTheExponentFormWithTwoExponentDigits() {
    assertThat(GoFormat.formatE(5)).isEqualTo("5e+00");
    assertThat(GoFormat.formatE(1500)).isEqualTo("1.5e+03");
    assertThat(GoFormat.formatE(-0.25)).isEqualTo("-2.5e-01");
    assertThat(GoFormat.formatE(0)).isEqualTo("0e+00");
    assertThat(GoFormat.formatE(1e100)).isEqualTo("1e+100");
  }

  @Test
  void jsonNumbersShortenANegativeExponentAsEncodingJsonDoes() {
    assertThat(GoFormat.jsonNumber(5e-7)).isEqualTo("5e-7");
    assertThat(GoFormat.jsonNumber(1.5e-10)).isEqualTo("1.5e-10");
    assertThat(GoFormat.jsonNumber(1e21)).isEqualTo("1e+21");
    assertThat(GoFormat.jsonNumber(0.000761881)).isEqualTo("0.000761881");
    assertThat(GoFormat.jsonNumber(1700000000.5)).isEqualTo("1700000000.5");
    assertThat(GoFormat.jsonNumber(0)).isEqualTo("0");
  }

  @Test
  void sampleTimestampsKeepAllThreeFractionDigits() {
    assertThat(GoFormat.timestamp(1_795_996_106_310L)).isEqualTo("1795996106.310");
    assertThat(GoFormat.timestamp(1_500)).isEqualTo("1.500");
    assertThat(GoFormat.timestamp(1_005)).isEqualTo("1.005");
    assertThat(GoFormat.timestamp(2_000)).isEqualTo("2");
    assertThat(GoFormat.timestamp(-1_500)).isEqualTo("-1.500");
  }

  @Test
  void timesAreRfc3339WithTrailingZerosDropped() {
    assertThat(GoFormat.rfc3339Nano(Instant.parse("2026-11-29T23:48:39.630514595Z"))).isEqualTo("2026-11-29T23:48:39.630514595Z");
    assertThat(GoFormat.rfc3339Nano(Instant.parse("2026-11-29T23:48:39.631309940Z"))).isEqualTo("2026-11-29T23:48:39.63130994Z");
    assertThat(GoFormat.rfc3339Nano(Instant.parse("2026-11-29T23:48:39Z"))).isEqualTo("2026-11-29T23:48:39Z");
  }
}
