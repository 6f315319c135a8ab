package dev.firedrill.alerting.routes;

import dev.firedrill.format.GoQuote;
import dev.firedrill.regex.GoRegex;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One label matcher: {@code name="value"}, {@code name!="value"}, {@code name=~"regex"}, {@code
 * name!~"regex"}, the name any text since Alertmanager 0.27 ({@link MatcherSyntax} reads them). A
 * missing label is the empty string; a regular expression must match the whole value (it is
 * anchored as {@code ^(?:re)$}).
 */
public record Matcher(String name, MatchType type, String value, Pattern pattern) {

  /**
   * Alertmanager's order: name, then value (as Go compares strings: by code point), then operator.
   */
  public static final Comparator<Matcher> ORDER =
      Comparator.comparing(Matcher::name, Matcher::compareCodePoints)
          .thenComparing(Matcher::value, Matcher::compareCodePoints)
          .thenComparing(Matcher::type);

  public Matcher {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(value, "value");
    if ((type == MatchType.REGEXP || type == MatchType.NOT_REGEXP) != (pattern != null)) {
      throw new IllegalArgumentException(
          "a regular expression matcher needs its pattern, and only it");
    }
  }

  /**
   * A matcher; a regular expression is checked and anchored here (IllegalArgumentException when it
   * is invalid).
   */
  public static Matcher of(String name, MatchType type, String value) {
    Pattern pattern =
        type == MatchType.REGEXP || type == MatchType.NOT_REGEXP
            ? GoRegex.compileAnchored(value)
            : null;
    return new Matcher(name, type, value, pattern);
  }

  /**
   * Whether the label's value (the empty string when the label is missing) satisfies this matcher.
   */
  public boolean matches(String labelValue) {
    String actual = labelValue == null ? "" : labelValue;
    return switch (type) {
      case EQUAL -> actual.equals(value);
      case NOT_EQUAL -> !actual.equals(value);
      case REGEXP -> pattern.matcher(actual).matches();
      case NOT_REGEXP -> !pattern.matcher(actual).matches();
    };
  }

  /**
   * One matcher in the classic grammar ({@link MatcherSyntax#CLASSIC}), as Alertmanager 0.26 and
   * earlier read it.
   */
  public static Matcher parse(String text) {
    return ClassicMatchers.parse(text);
  }

  /**
   * A comma-separated list in the classic grammar, as one route {@code matchers} entry of
   * Alertmanager 0.26.
   */
  public static List<Matcher> parseList(String text) {
    return ClassicMatchers.parseList(text);
  }

  /**
   * As Alertmanager prints it: {@code name="value"} with {@code \\}, {@code \n} and {@code \"}
   * escaped; a name with a space or a reserved character (0.27 and later) quoted, with its value,
   * as Go quotes strings.
   */
  @Override
  public String toString() {
    if (name.codePoints().anyMatch(Utf8Lexer::reserved)) {
      return GoQuote.of(name) + type.operator() + GoQuote.of(value);
    }
    return name
        + type.operator()
        + "\""
        + value.replace("\\", "\\\\").replace("\n", "\\n").replace("\"", "\\\"")
        + "\"";
  }

  /** Go's byte order of UTF-8 strings, which is code point order (Java's compareTo is UTF-16's). */
  static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Matcher m
        && m.name.equals(name)
        && m.type == type
        && m.value.equals(value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, type, value);
  }
}
