package dev.firedrill.alerting.routes;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which grammar reads matchers and label names, as Alertmanager 0.27 and later choose it with a
 * feature flag: {@code classic-mode} (the only grammar of 0.26 and earlier), {@code
 * utf8-strict-mode}, or neither, the default, where the UTF-8 parser is tried first and the classic
 * one decides whenever it reads the input too (with a warning when the two disagree, or when only
 * the classic one can read it).
 */
public enum MatcherSyntax {
  CLASSIC("classic"),
  UTF8("utf8"),
  FALLBACK("fallback");

  /** Alertmanager's {@code model.LegacyValidation}: the label names of 0.26 and earlier. */
  private static final Pattern CLASSIC_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  private final String word;

  MatcherSyntax(String word) {
    this.word = word;
  }

  /** The word {@code firedrill routes --matchers} takes. */
  public String word() {
    return word;
  }

  public static Optional<MatcherSyntax> of(String word) {
    String wanted = word.toLowerCase(Locale.ROOT);
    return List.of(values()).stream().filter(s -> s.word.equals(wanted)).findFirst();
  }

  /**
   * Whether a {@code group_by} entry may be this label name: classic names, else any non-empty
   * text.
   */
  public boolean validLabelName(String name) {
    return this == CLASSIC ? CLASSIC_NAME.matcher(name).matches() : !name.isEmpty();
  }

  /** What a label name must look like, for messages. */
  public String labelNameRule() {
    return this == CLASSIC ? "[a-zA-Z_][a-zA-Z0-9_]*" : "any non-empty text";
  }

  /**
   * One route {@code matchers} entry, or an alert query: zero or more matchers (Alertmanager's
   * {@code compat.Matchers}). IllegalArgumentException with Alertmanager's message when it cannot
   * be read.
   */
  public Parsed parseList(String text) {
    return switch (this) {
      case CLASSIC -> new Parsed(ClassicMatchers.parseList(text), Optional.empty());
      case UTF8 -> new Parsed(Utf8Matchers.parseList(text), Optional.empty());
      case FALLBACK ->
          fallback(text, () -> Utf8Matchers.parseList(text), () -> ClassicMatchers.parseList(text));
    };
  }

  /**
   * Exactly one matcher, such as a label {@code amtool config routes test} takes (Alertmanager's
   * {@code compat.Matcher}): the UTF-8 grammar refuses braces around it.
   */
  public Parsed parseOne(String text) {
    return switch (this) {
      case CLASSIC -> new Parsed(List.of(ClassicMatchers.parse(text)), Optional.empty());
      case UTF8 -> {
        refuseBraces(text);
        yield new Parsed(List.of(Utf8Matchers.parseOne(text)), Optional.empty());
      }
      case FALLBACK -> {
        refuseBraces(text);
        yield fallback(
            text,
            () -> List.of(Utf8Matchers.parseOne(text)),
            () -> List.of(ClassicMatchers.parse(text)));
      }
    };
  }

  private static void refuseBraces(String text) {
    if (text.startsWith("{") || text.endsWith("}")) {
      throw new IllegalArgumentException("unexpected open or close brace: " + text);
    }
  }

  /**
   * Alertmanager's fallback: both parsers read the input; the classic result is kept whenever there
   * is one, so a file 0.26 read is read the same; the UTF-8 one only when the classic parser
   * refuses it.
   */
  private static Parsed fallback(String text, Reading utf8, Reading classic) {
    List<Matcher> fromUtf8 = null;
    String utf8Error = null;
    try {
      fromUtf8 = utf8.read();
    } catch (IllegalArgumentException e) {
      utf8Error = e.getMessage();
    }
    List<Matcher> fromClassic = null;
    IllegalArgumentException classicError = null;
    try {
      fromClassic = classic.read();
    } catch (IllegalArgumentException e) {
      classicError = e;
    }
    if (fromUtf8 == null) {
      if (classicError != null) {
        throw classicError;
      }
      return new Parsed(
          fromClassic,
          Optional.of(
              "read by the classic matcher parser only, which Alertmanager"
                  + " will stop using (the UTF-8 parser says: "
                  + utf8Error
                  + "); write it as "
                  + String.join(",", fromClassic.stream().map(Matcher::toString).toList())));
    }
    if (fromClassic != null && !sameAsClassic(fromUtf8, fromClassic)) {
      return new Parsed(
          fromClassic,
          Optional.of(
              "the UTF-8 and classic matcher parsers disagree on "
                  + quoted(text)
                  + "; Alertmanager keeps the classic reading "
                  + String.join(",", fromClassic.stream().map(Matcher::toString).toList())));
    }
    return new Parsed(fromUtf8, Optional.empty());
  }

  /**
   * Alertmanager compares the two with Go's reflect.DeepEqual, under which the UTF-8 parser's nil
   * list of no matchers differs from the classic parser's empty one: an empty entry is a
   * disagreement too.
   */
  private static boolean sameAsClassic(List<Matcher> utf8, List<Matcher> classic) {
    return !utf8.isEmpty() && utf8.equals(classic);
  }

  private static String quoted(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }

  @FunctionalInterface
  private interface Reading {
    List<Matcher> read();
  }

  /** The matchers read, and the warning Alertmanager would log about how they were read. */
  public record Parsed(List<Matcher> matchers, Optional<String> warning) {
    public Parsed {
      matchers = List.copyOf(matchers);
    }
  }
}
