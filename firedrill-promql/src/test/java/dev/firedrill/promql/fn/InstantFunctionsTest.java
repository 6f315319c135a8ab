package dev.firedrill.promql.fn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class InstantFunctionsTest {

  private static final double NAN = Double.NaN;
  private static final double INF = Double.POSITIVE_INFINITY;

  /** 2024-02-29T13:45:30Z, a Thursday, the 60th day of a leap year. */
  private static final double LEAP_DAY = 1_709_214_330;

  private static double apply(String name, double value, double... args) {
    return InstantFunctions.apply(name, value, args);
  }

  @Test
  void roundTiesUp() {
    assertThat(apply("round", 2.5)).isEqualTo(3);
    assertThat(apply("round", -2.5)).isEqualTo(-2);
    assertThat(apply("round", 2.4)).isEqualTo(2);
  }

  @Test
  void roundToNearestMultipliesByTheInverse() {
    assertThat(apply("round", 2.5, 3)).isEqualTo(3);
    assertThat(apply("round", 2.5, 1.0 / 3)).isEqualTo(8.0 / 3);
    assertThat(apply("round", 0.3, -1)).isEqualTo(-0.0);
    assertThat(apply("round", 2.5, 0)).isNaN();
  }

  @Test
  void clampBoundsBothSides() {
    assertThat(apply("clamp", -50, -25, 75)).isEqualTo(-25);
    assertThat(apply("clamp", 100, -25, 75)).isEqualTo(75);
    assertThat(apply("clamp", 0, -25, 75)).isEqualTo(0);
    assertThat(apply("clamp_min", -50, -25)).isEqualTo(-25);
    assertThat(apply("clamp_max", 100, 75)).isEqualTo(75);
  }

  @Test
  void clampWithANaNBoundIsNaN() {
    assertThat(apply("clamp", 1, 0, NAN)).isNaN();
    assertThat(apply("clamp", 1, NAN, 0)).isNaN();
  }

  @Test
  void anInfiniteBoundWinsOverNaNAsInGo() {
    assertThat(apply("clamp_min", NAN, INF)).isEqualTo(INF);
    assertThat(apply("clamp_max", NAN, -INF)).isEqualTo(-INF);
    assertThat(apply("clamp", NAN, 0, -INF)).isEqualTo(0);
  }

  @Test
  void sgnKeepsZeroAndNaN() {
    assertThat(apply("sgn", -INF)).isEqualTo(-1);
    assertThat(apply("sgn", 100)).isEqualTo(1);
    assertThat(apply("sgn", -0.0)).isEqualTo(-0.0);
    assertThat(apply("sgn", NAN)).isNaN();
  }

  @Test
  void logarithmsOfPowersAreExact() {
    assertThat(apply("log2", 8)).isEqualTo(3);
    assertThat(apply("log10", 1000)).isEqualTo(3);
    assertThat(apply("ln", 1)).isEqualTo(0);
    assertThat(apply("ln", 0)).isEqualTo(-INF);
    assertThat(apply("ln", -1)).isNaN();
  }

  @Test
  void lnOfASubnormalReadsItsExponentFieldAsGoDoes() {
    // The smallest subnormal taken as 2^-1023 (exponent field 0, mantissa read as 1.0...), not
    // 2^-1074.
    assertThat(apply("ln", Double.MIN_VALUE)).isCloseTo(-1023 * Math.log(2), within(1e-9));
    assertThat(apply("log2", Double.MIN_VALUE)).isEqualTo(-1074);
  }

  @Test
  void acosIsHalfPiMinusAsin() {
    double x = 0.9999999;
    assertThat(apply("acos", x)).isEqualTo(Math.PI / 2 - apply("asin", x));
    // Go's answer, 2e-12 from the correctly rounded 4.4721359910904e-4.
    assertThat(apply("acos", x)).isEqualTo(4.472135991180348E-4);
  }

  @Test
  void trigonometry() {
    assertThat(apply("sin", Math.PI / 2)).isEqualTo(1);
    assertThat(apply("cos", 0)).isEqualTo(1);
    assertThat(apply("tan", 0)).isEqualTo(0);
    assertThat(apply("atan", INF)).isEqualTo(Math.PI / 2);
    assertThat(apply("asin", 1.1)).isNaN();
    assertThat(apply("deg", Math.PI)).isEqualTo(180);
    assertThat(apply("rad", 180)).isEqualTo(Math.PI);
  }

  @Test
  void inverseHyperbolics() {
    assertThat(apply("atanh", 0.5)).isCloseTo(0.5 * Math.log(3), within(1e-15));
    assertThat(apply("asinh", Math.sinh(2))).isCloseTo(2, within(1e-15));
    assertThat(apply("acosh", Math.cosh(3))).isCloseTo(3, within(1e-15));
    assertThat(apply("asinh", -0.0)).isEqualTo(-0.0);
    assertThat(apply("acosh", 1)).isEqualTo(0);
    assertThat(apply("acosh", 0.5)).isNaN();
    assertThat(apply("atanh", 1)).isEqualTo(INF);
    assertThat(apply("atanh", -1.5)).isNaN();
  }

  @Test
  void dateFieldsOfALeapDay() {
    assertThat(apply("year", LEAP_DAY)).isEqualTo(2024);
    assertThat(apply("month", LEAP_DAY)).isEqualTo(2);
    assertThat(apply("day_of_month", LEAP_DAY)).isEqualTo(29);
    assertThat(apply("day_of_year", LEAP_DAY)).isEqualTo(60);
    assertThat(apply("day_of_week", LEAP_DAY)).isEqualTo(4);
    assertThat(apply("hour", LEAP_DAY)).isEqualTo(13);
    assertThat(apply("minute", LEAP_DAY)).isEqualTo(45);
    assertThat(apply("days_in_month", LEAP_DAY)).isEqualTo(29);
  }

  @Test
  void daysInFebruaryFollowTheGregorianRule() {
    assertThat(apply("days_in_month", 4_105_123_200.0)).isEqualTo(28); // 2100-02-01
    assertThat(apply("days_in_month", 950_140_800)).isEqualTo(29); // 2000-02-10
  }

  @Test
  void theLastSecondOfAYear() {
    double newYearsEve = 1_704_067_199; // 2023-12-31T23:59:59Z, a Sunday
    assertThat(apply("day_of_week", newYearsEve)).isEqualTo(0);
    assertThat(apply("day_of_year", newYearsEve)).isEqualTo(365);
    assertThat(apply("days_in_month", newYearsEve)).isEqualTo(31);
    assertThat(apply("year", newYearsEve + 1)).isEqualTo(2024);
  }

  @Test
  void secondsAreTruncatedTowardsZero() {
    assertThat(apply("year", -1)).isEqualTo(1969);
    assertThat(apply("hour", -1)).isEqualTo(23);
    assertThat(apply("year", -0.5)).isEqualTo(1970);
  }

  @Test
  void nanAndOutOfRangeSecondsAreTheLowestInt64AsOnAmd64() {
    // Go wraps that instant around its calendar's range, to December of year 292277026596.
    assertThat(apply("year", NAN)).isEqualTo(292_277_026_596.0);
    assertThat(apply("month", INF)).isEqualTo(12);
    assertThat(apply("days_in_month", 1e19)).isEqualTo(31);
    assertThat(apply("year", -INF)).isEqualTo(apply("year", NAN));
  }

  @Test
  void elementwiseFunctionsAreKnownByName() {
    assertThat(InstantFunctions.isElementwise("abs")).isTrue();
    assertThat(InstantFunctions.isElementwise("rate")).isFalse();
    assertThatThrownBy(() -> apply("rate", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not an elementwise function: rate");
    assertThatThrownBy(() -> apply("clamp", 1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("clamp takes 2 scalar argument(s), got 1");
  }

  @Test
  void plainFunctions() {
    assertThat(apply("abs", -2)).isEqualTo(2);
    assertThat(apply("ceil", 1.2)).isEqualTo(2);
    assertThat(apply("floor", -1.2)).isEqualTo(-2);
    assertThat(apply("exp", 0)).isEqualTo(1);
    assertThat(apply("sqrt", 16)).isEqualTo(4);
    assertThat(apply("sqrt", -1)).isNaN();
  }
}
