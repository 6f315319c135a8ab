package dev.firedrill.alerting.routes;

import dev.firedrill.regex.GoRegex;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One label matcher, as Alertmanager's classic matcher syntax writes it: {@code name="value"},
 * {@code name!="value"}, {@code name=~"regex"}, {@code name!~"regex"}. A missing label is the empty
 * string; a regular expression must match the whole value (it is anchored as {@code ^(?:re)$}).
 */
public record Matcher(String name, MatchType type, String value, Pattern pattern) {

  /** Alertmanager's order: name, then value, then operator. */
  public static final Comparator<Matcher> ORDER = Comparator.comparing(Matcher::name)
      .thenComparing(Matcher::value)
      .thenComparing(Matcher::type);

  /** Go's {@code \s} is ASCII {@code [\t\n\f\r ]}, without the vertical tab Java's has. */
  private static final String SPACE = "[\\t\\n\\f\\r ]";
  private static final Pattern SYNTAX = Pattern.compile(
      SPACE + "*([a-zA-Z_:][a-zA-Z0-9_:]*)" + SPACE + "*(=~|=|!=|!~)" + SPACE + "*((?s).*?)" + SPACE + "*");

  public Matcher {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(value, "value");
    if ((type == MatchType.REGEXP || type == MatchType.NOT_REGEXP) != (pattern != null)) {
      throw new IllegalArgumentException("a regular expression matcher needs its pattern, and only it");
    }
  }

  /** A matcher; a regular expression is checked and anchored here (IllegalArgumentException when it is invalid). */
  public static Matcher of(String name, MatchType type, String value) {
    Pattern pattern = type == MatchType.REGEXP || type == MatchType.NOT_REGEXP ? GoRegex.compileAnchored(value) : null;
    return new Matcher(name, type, value, pattern);
  }

  /** Whether the label's value (the empty string when the label is missing) satisfies this matcher. */
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
   * Parses one matcher, as Alertmanager's {@code labels.ParseMatcher}: whitespace around each part is
   * dropped; the value may be double-quoted; inside it {@code \"}, {@code \\} and {@code \n} are escapes
   * and any other backslash is literal.
   */
  public static Matcher parse(String text) {
    java.util.regex.Matcher parts = SYNTAX.matcher(text);
    if (!parts.matches()) {
      throw new IllegalArgumentException("bad matcher format: " + text);
    }
    String raw = parts.group(3);
    boolean expectTrailingQuote = false;
    if (raw.startsWith("\"")) {
      raw = raw.substring(1);
      expectTrailingQuote = true;
    }
    StringBuilder value = new StringBuilder();
    boolean escaped = false;
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (escaped) {
        escaped = false;
        switch (c) {
          case 'n' -> value.append('\n');
          case '"', '\\' -> value.append(c);
          default -> value.append('\\').append(c);
        }
        continue;
      }
      if (c == '\\') {
        if (i < raw.length() - 1) {
          escaped = true;
        } else {
          value.append('\\');
        }
      } else if (c == '"') {
        if (!expectTrailingQuote || i < raw.length() - 1) {
          throw new IllegalArgumentException("matcher value contains unescaped double quote: " + parts.group(3));
        }
        expectTrailingQuote = false;
      } else {
        value.append(c);
      }
    }
    if (expectTrailingQuote) {
      throw new IllegalArgumentException("matcher value contains unescaped double quote: " + parts.group(3));
    }
    return of(parts.group(1), MatchType.of(parts.group(2)), value.toString());
  }

  /**
   * Parses a comma-separated list, as Alertmanager's {@code labels.ParseMatchers} (one entry of a
   * route's {@code matchers}): an optional leading {@code {} and trailing {@code }}, commas inside
   * double quotes kept, a trailing comma allowed.
   */
  public static List<Matcher> parseList(String text) {
    String s = text.startsWith("{") ? text.substring(1) : text;
    s = s.endsWith("}") ? s.substring(0, s.length() - 1) : s;
    List<String> tokens = new ArrayList<>();
    StringBuilder token = new StringBuilder();
    boolean insideQuotes = false;
    boolean escaped = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case ',' -> {
          if (!insideQuotes) {
            tokens.add(token.toString());
            token.setLength(0);
            continue;
          }
        }
        case '"' -> {
          if (!escaped) {
            insideQuotes = !insideQuotes;
          } else {
            escaped = false;
          }
        }
        case '\\' -> escaped = !escaped;
        default -> escaped = false;
      }
      token.append(c);
    }
    String last = token.toString().strip();
    if (!last.isEmpty()) {
      tokens.add(last);
    }
    List<Matcher> matchers = new ArrayList<>();
    for (String each : tokens) {
      matchers.add(parse(each));
    }
    return matchers;
  }

  /** As Alertmanager prints it: {@code name="value"} with {@code \\}, {@code \n} and {@code \"} escaped. */
  @Override
  public String toString() {
    return name + type.operator() + "\"" + value.replace("\\", "\\\\").replace("\n", "\\n").replace("\"", "\\\"") + "\"";
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Matcher m && m.name.equals(name) && m.type == type && m.value.equals(value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, type, value);
  }
}
