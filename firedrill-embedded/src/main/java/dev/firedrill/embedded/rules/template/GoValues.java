package dev.firedrill.embedded.rules.template;

import dev.firedrill.format.GoFloat;
import java.util.Map;
import java.util.TreeMap;

/**
 * Template values as Go sees them: String is {@code string}, Long {@code int}, Double {@code
 * float64}, Boolean {@code bool}, a Map {@code map[string]string}, {@link Struct} the data
 * Prometheus hands an alert's templates, null a missing value.
 */
final class GoValues {

  private GoValues() {}

  /** A Go struct: its type as Go prints it, and its fields by name. */
  record Struct(String goType, Map<String, Object> fields) {}

  static String typeName(Object value) {
    if (value == null) {
      return "<nil>";
    } else if (value instanceof String) {
      return "string";
    } else if (value instanceof Long) {
      return "int";
    } else if (value instanceof Double) {
      return "float64";
    } else if (value instanceof Boolean) {
      return "bool";
    } else if (value instanceof Map) {
      return "map[string]string";
    } else if (value instanceof Struct s) {
      return s.goType();
    }
    return value.getClass().getSimpleName();
  }

  /** {@code fmt.Sprint} of one value; a template prints a missing value as {@code <no value>}. */
  static String print(Object value) {
    if (value == null) {
      return "<no value>";
    } else if (value instanceof Double d) {
      return GoFloat.sprint(d);
    } else if (value instanceof Map<?, ?> m) {
      StringBuilder out = new StringBuilder("map[");
      new TreeMap<>(m)
          .forEach(
              (k, v) -> out.append(out.length() > 4 ? " " : "").append(k).append(':').append(v));
      return out.append(']').toString();
    } else if (value instanceof Struct s) {
      return "{"
          + String.join(" ", s.fields().values().stream().map(GoValues::print).toList())
          + "}";
    }
    return String.valueOf(value);
  }

  /**
   * Go's truth for {@code if}, {@code and}, {@code or} and {@code not}: the zero value is false.
   */
  static boolean isTrue(Object value) {
    if (value == null) {
      return false;
    } else if (value instanceof Boolean b) {
      return b;
    } else if (value instanceof Long l) {
      return l != 0;
    } else if (value instanceof Double d) {
      return d != 0;
    } else if (value instanceof String s) {
      return !s.isEmpty();
    } else if (value instanceof Map<?, ?> m) {
      return !m.isEmpty();
    }
    return true;
  }
}
