package dev.firedrill.promql.fn;

/**
 * Functions applied to each sample's value on its own: {@code abs ceil floor exp sqrt ln log2 log10
 * round clamp clamp_min clamp_max sgn}, the trigonometric functions, {@code deg rad}, and the date
 * functions ({@code day_of_month day_of_week day_of_year days_in_month hour minute month year},
 * which read the value as Unix seconds, UTC).
 */
public final class InstantFunctions {

  private InstantFunctions() {}

  public static boolean isElementwise(String name) {
    throw new UnsupportedOperationException("not written yet");
  }

  /** @param scalarArgs the scalar arguments after the vector (round's to_nearest, clamp's min and max) */
  public static double apply(String name, double value, double[] scalarArgs) {
    throw new UnsupportedOperationException("not written yet");
  }
}
