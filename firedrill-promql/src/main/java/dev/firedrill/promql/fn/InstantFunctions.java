package dev.firedrill.promql.fn;

import java.util.Map;

/**
 * Functions applied to each sample's value on its own: {@code abs ceil floor exp sqrt ln log2 log10
 * round clamp clamp_min clamp_max sgn}, the trigonometric functions, {@code deg rad}, and the date
 * functions ({@code day_of_month day_of_week day_of_year days_in_month hour minute month year},
 * which read the value as Unix seconds, UTC; without an argument the evaluator passes the
 * evaluation time in seconds, truncated). {@code clamp} with max below min gives no samples at all,
 * which the evaluator decides before calling.
 */
public final class InstantFunctions {

  /** How many scalar arguments each function takes after the vector; round's is optional. */
  private static final Map<String, Integer> SCALAR_ARGS =
      Map.ofEntries(
          Map.entry("abs", 0),
          Map.entry("ceil", 0),
          Map.entry("floor", 0),
          Map.entry("exp", 0),
          Map.entry("sqrt", 0),
          Map.entry("ln", 0),
          Map.entry("log2", 0),
          Map.entry("log10", 0),
          Map.entry("round", 1),
          Map.entry("clamp", 2),
          Map.entry("clamp_min", 1),
          Map.entry("clamp_max", 1),
          Map.entry("sgn", 0),
          Map.entry("acos", 0),
          Map.entry("acosh", 0),
          Map.entry("asin", 0),
          Map.entry("asinh", 0),
          Map.entry("atan", 0),
          Map.entry("atanh", 0),
          Map.entry("cos", 0),
          Map.entry("cosh", 0),
          Map.entry("sin", 0),
          Map.entry("sinh", 0),
          Map.entry("tan", 0),
          Map.entry("tanh", 0),
          Map.entry("deg", 0),
          Map.entry("rad", 0),
          Map.entry("day_of_month", 0),
          Map.entry("day_of_week", 0),
          Map.entry("day_of_year", 0),
          Map.entry("days_in_month", 0),
          Map.entry("hour", 0),
          Map.entry("minute", 0),
          Map.entry("month", 0),
          Map.entry("year", 0));

  private InstantFunctions() {}

  public static boolean isElementwise(String name) {
    return SCALAR_ARGS.containsKey(name);
  }

  /**
   * @param scalarArgs the scalar arguments after the vector (round's to_nearest, clamp's min and
   *     max)
   */
  public static double apply(String name, double value, double[] scalarArgs) {
    Integer expected = SCALAR_ARGS.get(name);
    if (expected == null) {
      throw new IllegalArgumentException("not an elementwise function: " + name);
    }
    boolean optional = name.equals("round") && scalarArgs.length == 0;
    if (scalarArgs.length != expected && !optional) {
      throw new IllegalArgumentException(
          name + " takes " + expected + " scalar argument(s), got " + scalarArgs.length);
    }
    return switch (name) {
      case "abs" -> Math.abs(value);
      case "ceil" -> Math.ceil(value);
      case "floor" -> Math.floor(value);
      case "exp" -> Math.exp(value);
      case "sqrt" -> Math.sqrt(value);
      case "ln" -> GoMath.log(value);
      case "log2" -> GoMath.log2(value);
      case "log10" -> GoMath.log10(value);
      case "round" -> round(value, optional ? 1 : scalarArgs[0]);
      case "clamp" -> GoMath.max(scalarArgs[0], GoMath.min(scalarArgs[1], value));
      case "clamp_min" -> GoMath.max(scalarArgs[0], value);
      case "clamp_max" -> GoMath.min(scalarArgs[0], value);
      case "sgn" -> value < 0 ? -1 : value > 0 ? 1 : value;
      case "acos" -> GoMath.acos(value);
      case "acosh" -> GoMath.acosh(value);
      case "asin" -> GoMath.asin(value);
      case "asinh" -> GoMath.asinh(value);
      case "atan" -> GoMath.atan(value);
      case "atanh" -> GoMath.atanh(value);
      case "cos" -> Math.cos(value);
      case "cosh" -> Math.cosh(value);
      case "sin" -> Math.sin(value);
      case "sinh" -> Math.sinh(value);
      case "tan" -> Math.tan(value);
      case "tanh" -> Math.tanh(value);
      case "deg" -> value * 180 / Math.PI;
      case "rad" -> value * Math.PI / 180;
      case "day_of_month" -> GoTime.ofUnixSeconds(value).dayOfMonth();
      case "day_of_week" -> GoTime.ofUnixSeconds(value).dayOfWeek();
      case "day_of_year" -> GoTime.ofUnixSeconds(value).dayOfYear();
      case "days_in_month" -> GoTime.ofUnixSeconds(value).daysInMonth();
      case "hour" -> GoTime.ofUnixSeconds(value).hour();
      case "minute" -> GoTime.ofUnixSeconds(value).minute();
      case "month" -> GoTime.ofUnixSeconds(value).month();
      case "year" -> GoTime.ofUnixSeconds(value).year();
      default -> throw new IllegalStateException("elementwise function without a body: " + name);
    };
  }

  /**
   * Ties round up; multiplying by the inverse loses less precision than dividing (Prometheus's
   * choice).
   */
  private static double round(double value, double toNearest) {
    double inverse = 1.0 / toNearest;
    return Math.floor(value * inverse + 0.5) / inverse;
  }
}
