package dev.firedrill.promql.model;

import dev.firedrill.regex.GoRegex;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One PromQL label matcher. A missing label is the empty string; a regular expression is Go's RE2
 * syntax, anchored at both ends as Prometheus anchors it.
 */
public record LabelMatcher(Type type, String name, String value, Pattern pattern) {

  public enum Type {
    EQUAL("="),
    NOT_EQUAL("!="),
    REGEX("=~"),
    NOT_REGEX("!~");

    private final String symbol;

    Type(String symbol) {
      this.symbol = symbol;
    }

    public String symbol() {
      return symbol;
    }
  }

  public LabelMatcher {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
  }

  /** IllegalArgumentException naming the expression when a regular expression does not compile. */
  public static LabelMatcher of(Type type, String name, String value) {
    return of(type, name, value, false);
  }

  /**
   * As above; with {@code dotMatchesNewline} a regular expression's {@code .} matches a line feed,
   * as Prometheus 3's matchers do.
   */
  public static LabelMatcher of(Type type, String name, String value, boolean dotMatchesNewline) {
    Pattern pattern =
        type == Type.REGEX || type == Type.NOT_REGEX
            ? GoRegex.compileAnchored(value, dotMatchesNewline)
            : null;
    return new LabelMatcher(type, name, value, pattern);
  }

  public boolean matches(String labelValue) {
    String actual = labelValue == null ? "" : labelValue;
    return switch (type) {
      case EQUAL -> actual.equals(value);
      case NOT_EQUAL -> !actual.equals(value);
      case REGEX -> pattern.matcher(actual).matches();
      case NOT_REGEX -> !pattern.matcher(actual).matches();
    };
  }

  /** Whether this matcher matches the empty string (a selector needs one that does not). */
  public boolean matchesEmpty() {
    return matches("");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LabelMatcher m
        && m.type == type
        && m.name.equals(name)
        && m.value.equals(value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, name, value);
  }

  @Override
  public String toString() {
    return name + type.symbol + "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
