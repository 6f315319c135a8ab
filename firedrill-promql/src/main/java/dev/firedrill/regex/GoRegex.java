package dev.firedrill.regex;

import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Go's RE2 syntax (what Alertmanager's regex matchers use) compiled as a Java pattern with the same
 * meaning for what both support: {@code \s}, {@code \b}, POSIX classes, {@code (?P<name>)}, literal
 * {@code {}, {@code [} and {@code &} inside classes, {@code $} at the end of text, {@code .} excluding only
 * a line feed, Unicode case folding. What RE2 refuses (back-references, look-around, possessive and
 * atomic groups) is refused here too.
 */
public final class GoRegex {

  private static final String WORD = "[0-9A-Za-z_]";
  private static final String BOUNDARY =
      "(?:(?<=" + WORD + ")(?!" + WORD + ")|(?<!" + WORD + ")(?=" + WORD + "))";
  private static final String NOT_BOUNDARY =
      "(?:(?<=" + WORD + ")(?=" + WORD + ")|(?<!" + WORD + ")(?!" + WORD + "))";
  private static final String SPACE_CHARS = "\\t\\n\\f\\r ";
  private static final Map<String, String> POSIX =
      Map.ofEntries(
          Map.entry("alnum", "0-9A-Za-z"),
          Map.entry("alpha", "A-Za-z"),
          Map.entry("ascii", "\\x00-\\x7F"),
          Map.entry("blank", "\\t "),
          Map.entry("cntrl", "\\x00-\\x1F\\x7F"),
          Map.entry("digit", "0-9"),
          Map.entry("graph", "!-~"),
          Map.entry("lower", "a-z"),
          Map.entry("print", " -~"),
          Map.entry("punct", "!-/:-@\\[-`{-~"),
          Map.entry("space", "\\t\\n\\x0B\\f\\r "),
          Map.entry("upper", "A-Z"),
          Map.entry("word", "0-9A-Za-z_"),
          Map.entry("xdigit", "0-9A-Fa-f"));
  private static final Pattern REPEAT = Pattern.compile("\\{(\\d+)(,(\\d*))?\\}");

  private final String source;
  private final StringBuilder out = new StringBuilder();
  private int i;
  private final boolean multiline;

  private GoRegex(String source) {
    this.source = source;
    this.multiline = source.contains("(?m") || source.matches("(?s).*\\(\\?[a-zA-Z]*m.*");
  }

  /** {@code ^(?:re)$} as Go compiles it; IllegalArgumentException naming the problem otherwise. */
  public static Pattern compileAnchored(String re) {
    return compileAnchored(re, false);
  }

  /**
   * As above; with {@code dotMatchesNewline}, {@code ^(?s:re)$}, as Prometheus 3 compiles a label
   * matcher's regular expression: {@code .} matches a line feed too (a flag in {@code re} may still
   * turn that off).
   */
  public static Pattern compileAnchored(String re, boolean dotMatchesNewline) {
    String translated = (dotMatchesNewline ? "(?s:" : "(?:") + new GoRegex(re).translate() + ")";
    try {
      return Pattern.compile(translated, Pattern.UNIX_LINES | Pattern.UNICODE_CASE);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          "invalid regular expression \"" + re + "\": " + e.getDescription());
    }
  }

  private String translate() {
    boolean afterRepeat = false;
    while (i < source.length()) {
      char c = source.charAt(i);
      boolean repeat = false;
      switch (c) {
        case '\\' -> escape(false);
        case '[' -> charClass();
        case '(' -> group();
        case '$' -> {
          out.append(multiline ? "$" : "\\z");
          i++;
        }
        case '*', '+', '?' -> {
          if (afterRepeat) {
            throw invalid("invalid nested repetition operator");
          }
          out.append(c);
          i++;
          if (i < source.length() && source.charAt(i) == '?') {
            out.append('?');
            i++;
          }
          repeat = true;
        }
        case '{' -> {
          java.util.regex.Matcher m = REPEAT.matcher(source).region(i, source.length());
          if (m.lookingAt()) {
            int min = Integer.parseInt(m.group(1).length() > 5 ? "100000" : m.group(1));
            String max = m.group(3);
            if (min > 1000
                || (max != null
                    && !max.isEmpty()
                    && (max.length() > 5 || Integer.parseInt(max) > 1000))) {
              throw invalid("invalid repeat count");
            }
            if (afterRepeat) {
              throw invalid("invalid nested repetition operator");
            }
            out.append(m.group());
            i = m.end();
            if (i < source.length() && source.charAt(i) == '?') {
              out.append('?');
              i++;
            }
            repeat = true;
          } else {
            out.append("\\{");
            i++;
          }
        }
        default -> {
          appendLiteral(c);
          i++;
        }
      }
      afterRepeat = repeat;
    }
    return out.toString();
  }

  private void appendLiteral(char c) {
    out.append(c);
  }

  private void group() {
    if (source.startsWith("(?P<", i)) {
      int end = source.indexOf('>', i);
      if (end < 0) {
        throw invalid("invalid named capture");
      }
      out.append('(');
      i = end + 1;
      return;
    }
    if (source.startsWith("(?", i)) {
      int j = i + 2;
      while (j < source.length() && "imsU-".indexOf(source.charAt(j)) >= 0) {
        j++;
      }
      if (j >= source.length()
          || (source.charAt(j) != ')' && source.charAt(j) != ':')
          || (j == i + 2 && source.charAt(j) == ')')) {
        throw invalid("invalid or unsupported Perl syntax");
      }
      String flags = source.substring(i + 2, j);
      if (flags.contains("U")) {
        throw invalid("the ungreedy flag (?U) is not supported");
      }
      out.append(source, i, j + 1);
      i = j + 1;
      return;
    }
    out.append('(');
    i++;
  }

  /** One escape at {@code i} (a backslash); inside a class when {@code inClass}. */
  private void escape(boolean inClass) {
    if (i + 1 >= source.length()) {
      throw invalid("trailing backslash at end of expression");
    }
    char c = source.charAt(i + 1);
    switch (c) {
      case 's' -> out.append(inClass ? SPACE_CHARS : "[" + SPACE_CHARS + "]");
      case 'S' -> {
        if (inClass) {
          out.append("[^" + SPACE_CHARS + "]");
        } else {
          out.append("[^" + SPACE_CHARS + "]");
        }
      }
      case 'v' -> out.append("\\x0B");
      case 'a' -> out.append("\\x07");
      case 'b' -> {
        if (inClass) {
          throw invalid("invalid escape sequence \\b in a character class");
        }
        out.append(BOUNDARY);
      }
      case 'B' -> {
        if (inClass) {
          throw invalid("invalid escape sequence \\B in a character class");
        }
        out.append(NOT_BOUNDARY);
      }
      case 'f', 't', 'n', 'r', 'd', 'D', 'w', 'W', 'A', 'z' -> out.append('\\').append(c);
      case 'x' -> {
        out.append("\\x");
        i += 2;
        return;
      }
      case 'p', 'P' -> {
        unicodeClass(c);
        return;
      }
      case 'Q' -> {
        int end = source.indexOf("\\E", i + 2);
        String literal = end < 0 ? source.substring(i + 2) : source.substring(i + 2, end);
        for (char l : literal.toCharArray()) {
          quoted(l);
        }
        i = end < 0 ? source.length() : end + 2;
        return;
      }
      case 'E' -> {
        i += 2;
        return;
      }
      case '0', '1', '2', '3', '4', '5', '6', '7' -> {
        int j = i + 1;
        int digits = 0;
        if (c != '0'
            && (j + 1 >= source.length()
                || source.charAt(j + 1) < '0'
                || source.charAt(j + 1) > '7')) {
          throw invalid("back-references are not supported");
        }
        int value = 0;
        while (j < source.length()
            && digits < 3
            && source.charAt(j) >= '0'
            && source.charAt(j) <= '7') {
          value = value * 8 + (source.charAt(j) - '0');
          j++;
          digits++;
        }
        out.append(String.format("\\x{%x}", value));
        i = j;
        return;
      }
      default -> {
        if (Character.isLetterOrDigit(c) || c == '_') {
          throw invalid("invalid escape sequence \\" + c);
        }
        quoted(c);
      }
    }
    i += 2;
  }

  private void quoted(char c) {
    if (Character.isLetterOrDigit(c) || c == '_' || c > 127) {
      out.append(c);
    } else {
      out.append('\\').append(c);
    }
  }

  private void unicodeClass(char p) {
    int start = i + 2;
    String name;
    int end;
    if (start < source.length() && source.charAt(start) == '{') {
      end = source.indexOf('}', start);
      if (end < 0) {
        throw invalid("invalid character class range");
      }
      name = source.substring(start + 1, end);
      end++;
    } else if (start < source.length()) {
      name = source.substring(start, start + 1);
      end = start + 1;
    } else {
      throw invalid("invalid character class range");
    }
    boolean negated = p == 'P';
    if (name.startsWith("^")) {
      negated = !negated;
      name = name.substring(1);
    }
    String javaName = name.equals("Any") ? null : name.length() <= 2 ? name : "Is" + name;
    if (javaName == null) {
      out.append(negated ? "[^\\x{0}-\\x{10FFFF}]" : "[\\x{0}-\\x{10FFFF}]");
    } else {
      out.append(negated ? "\\P{" : "\\p{").append(javaName).append('}');
    }
    i = end;
  }

  private void charClass() {
    out.append('[');
    i++;
    if (i < source.length() && source.charAt(i) == '^') {
      out.append('^');
      i++;
    }
    boolean first = true;
    while (true) {
      if (i >= source.length()) {
        throw invalid("missing closing ]");
      }
      char c = source.charAt(i);
      if (c == ']' && !first) {
        out.append(']');
        i++;
        return;
      }
      first = false;
      if (c == '[' && source.startsWith("[:", i)) {
        int end = source.indexOf(":]", i + 2);
        if (end > 0) {
          String name = source.substring(i + 2, end);
          boolean negated = name.startsWith("^");
          String ranges = POSIX.get(negated ? name.substring(1) : name);
          if (ranges == null) {
            throw invalid("invalid character class range [:" + name + ":]");
          }
          out.append(negated ? "[^" + ranges + "]" : ranges);
          i = end + 2;
          continue;
        }
      }
      switch (c) {
        case '\\' -> escape(true);
        case '[', ']', '&', '{', '}' -> {
          out.append('\\').append(c);
          i++;
        }
        default -> {
          out.append(c);
          i++;
        }
      }
    }
  }

  private IllegalArgumentException invalid(String why) {
    return new IllegalArgumentException("invalid regular expression \"" + source + "\": " + why);
  }
}
