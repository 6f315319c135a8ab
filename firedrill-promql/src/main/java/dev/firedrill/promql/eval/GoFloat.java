package dev.firedrill.promql.eval;

/** Go's strconv.ParseFloat for label values such as {@code le}: null where Go reports an error. */
final class GoFloat {

  private GoFloat() {}

  static Double parse(String s) {
    String t = s.startsWith("+") || s.startsWith("-") ? s.substring(1) : s;
    boolean negative = s.startsWith("-");
    if (t.equalsIgnoreCase("inf") || t.equalsIgnoreCase("infinity")) {
      return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (t.equalsIgnoreCase("nan")) {
      return Double.NaN;
    }
    // Java would also take a trailing d or f and surrounding blanks, which Go refuses.
    if (t.isEmpty() || !t.chars().allMatch(c -> Character.isDigit(c) || c == '.' || c == 'e' || c == 'E'
        || c == '+' || c == '-')) {
      return null;
    }
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
