package dev.firedrill.kubernetes.select;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/** One set-based expression of a label selector: {@code tier in (web, api)}, {@code !canary}. */
public record LabelRequirement(String key, Operator operator, List<String> values) {

  /** Kubernetes's operators, as {@code matchExpressions} writes them. */
  public enum Operator {
    IN("In"),
    NOT_IN("NotIn"),
    EXISTS("Exists"),
    DOES_NOT_EXIST("DoesNotExist");

    private final String text;

    Operator(String text) {
      this.text = text;
    }

    public String text() {
      return text;
    }

    /** Whether it needs values (In, NotIn) or refuses them (Exists, DoesNotExist). */
    public boolean needsValues() {
      return this == IN || this == NOT_IN;
    }

    /** The operator written {@code text}, in any case: {@code In}, {@code notin}. */
    public static Operator of(String text) {
      for (Operator operator : values()) {
        if (operator.text.toLowerCase(Locale.ROOT).equals(text.strip().toLowerCase(Locale.ROOT))) {
          return operator;
        }
      }
      return null;
    }

    public static List<String> names() {
      return List.of("In", "NotIn", "Exists", "DoesNotExist");
    }
  }

  public LabelRequirement {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(operator, "operator");
    values = List.copyOf(values);
    if (operator.needsValues() == values.isEmpty()) {
      throw new IllegalArgumentException(
          "operator "
              + operator.text()
              + (operator.needsValues() ? " needs values" : " takes no values"));
    }
  }

  public boolean matches(Map<String, String> labels) {
    String value = labels.get(key);
    return switch (operator) {
      case IN -> value != null && values.contains(value);
      case NOT_IN -> value == null || !values.contains(value);
      case EXISTS -> value != null;
      case DOES_NOT_EXIST -> value == null;
    };
  }

  /** As {@code kubectl -l} writes it. */
  public String text() {
    return switch (operator) {
      case IN -> key + " in (" + String.join(",", values) + ")";
      case NOT_IN -> key + " notin (" + String.join(",", values) + ")";
      case EXISTS -> key;
      case DOES_NOT_EXIST -> "!" + key;
    };
  }
}
