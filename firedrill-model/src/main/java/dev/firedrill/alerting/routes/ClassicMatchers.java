package dev.firedrill.alerting.routes;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Alertmanager's classic matcher grammar ({@code pkg/labels}), the only one before 0.27 and the one
 * {@code classic-mode} keeps: a classic label name, an operator, and a value that may be
 * double-quoted; inside it {@code \"}, {@code \\} and {@code \n} are escapes and any other
 * backslash is literal.
 */
final class ClassicMatchers {

  /** Go's {@code \s} is ASCII {@code [\t\n\f\r ]}, without the vertical tab Java's has. */
  private static final String SPACE = "[\\t\\n\\f\\r ]";

  private static final Pattern SYNTAX =
      Pattern.compile(
          SPACE
              + "*([a-zA-Z_:][a-zA-Z0-9_:]*)"
              + SPACE
              + "*(=~|=|!=|!~)"
              + SPACE
              + "*((?s).*?)"
              + SPACE
              + "*");

  private ClassicMatchers() {}

  /** One matcher, as {@code labels.ParseMatcher}: whitespace around each part is dropped. */
  static Matcher parse(String text) {
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
          throw new IllegalArgumentException(
              "matcher value contains unescaped double quote: " + parts.group(3));
        }
        expectTrailingQuote = false;
      } else {
        value.append(c);
      }
    }
    if (expectTrailingQuote) {
      throw new IllegalArgumentException(
          "matcher value contains unescaped double quote: " + parts.group(3));
    }
    return Matcher.of(parts.group(1), MatchType.of(parts.group(2)), value.toString());
  }

  /**
   * A comma-separated list, as {@code labels.ParseMatchers}: an optional leading {@code {} and
   * trailing {@code }}, commas inside double quotes kept, a trailing comma allowed.
   */
  static List<Matcher> parseList(String text) {
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
    String last = GoText.trimSpace(token.toString());
    if (!last.isEmpty()) {
      tokens.add(last);
    }
    List<Matcher> matchers = new ArrayList<>();
    for (String each : tokens) {
      matchers.add(parse(each));
    }
    return matchers;
  }
}
