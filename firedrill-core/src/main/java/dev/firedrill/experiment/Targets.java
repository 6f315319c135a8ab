package dev.firedrill.experiment;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code {{ targets }}} stands for in an SLI's queries: the names the faults selected at
 * injection (pod names), as one regex alternation, so that {@code pod=~"{{ targets }}"} reads the
 * experiment group and {@code pod!~"{{ targets }}"} the control group.
 *
 * <p>The placeholder is the whole value of a {@code =~} or {@code !~} matcher. Before injection no
 * group exists yet and the matcher becomes {@code =~".*"}: both queries read the whole group, so
 * the pre-flight steady state checks the whole service (delta 0, ratio 1 against the control).
 * After an injection whose faults selected nothing, the alternation is a regex that matches no
 * value.
 */
public final class Targets {

  /** The placeholder, with any spaces inside the braces. */
  static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*targets\\s*}}");

  /** A regex matcher whose whole quoted value is the placeholder. */
  private static final Pattern MATCHER =
      Pattern.compile("(=~|!~)(\\s*)([\"'`])\\{\\{\\s*targets\\s*}}\\3");

  /** A regex of one empty character class: RE2 (Prometheus's) matches no value with it. */
  static final String NOTHING = "[^\\s\\S]";

  private static final String REGEX_META = "\\.+*?()|[]{}^$";

  /** Before injection: every matcher with the placeholder matches the whole group. */
  public static final Targets BEFORE_INJECTION = new Targets(Optional.empty());

  private final Optional<List<String>> names;

  private Targets(Optional<List<String>> names) {
    this.names = names;
  }

  /** After injection: the names every fault selected, each once, in the order they came. */
  public static Targets of(List<String> names) {
    return new Targets(Optional.of(List.copyOf(new LinkedHashSet<>(names))));
  }

  /** Whether the faults were injected (the names may still be empty). */
  public boolean injected() {
    return names.isPresent();
  }

  /** The selected names; empty before injection. */
  public List<String> names() {
    return names.orElse(List.of());
  }

  /** Whether {@code query} has the placeholder at all. */
  public static boolean uses(String query) {
    return PLACEHOLDER.matcher(query).find();
  }

  /**
   * What is wrong with the placeholder's use in {@code query}, when something is: it stands
   * somewhere other than as the whole value of a regex matcher, where no quoting can be safe.
   */
  public static Optional<String> misuse(String query) {
    int placeholders = count(PLACEHOLDER.matcher(query));
    int matchers = count(MATCHER.matcher(query));
    if (placeholders == matchers) {
      return Optional.empty();
    }
    return Optional.of(
        "expected {{ targets }} only as the whole value of a regex matcher, such as"
            + " pod=~\"{{ targets }}\" or pod!~\"{{ targets }}\"");
  }

  /** {@code query} as run: every placeholder matcher replaced. */
  public String resolve(String query) {
    Matcher matcher = MATCHER.matcher(query);
    StringBuilder out = new StringBuilder();
    while (matcher.find()) {
      String replacement;
      if (names.isEmpty()) {
        replacement = "=~\".*\"";
      } else {
        String quote = matcher.group(3);
        replacement = matcher.group(1) + matcher.group(2) + quote + value(quote) + quote;
      }
      matcher.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    matcher.appendTail(out);
    return out.toString();
  }

  /**
   * The alternation as the string literal's body for {@code quote}: each name's regex
   * metacharacters escaped, the three quote characters written as {@code \x22}-style escapes (so no
   * name can end the literal), and, in a literal that reads escapes, each backslash doubled.
   */
  private String value(String quote) {
    List<String> alternatives = new ArrayList<>();
    for (String name : names.get()) {
      alternatives.add(regexLiteral(name));
    }
    String regex = alternatives.isEmpty() ? NOTHING : String.join("|", alternatives);
    return quote.equals("`") ? regex : regex.replace("\\", "\\\\");
  }

  /** {@code name} as a regex that matches exactly it. */
  static String regexLiteral(String name) {
    StringBuilder out = new StringBuilder();
    name.codePoints()
        .forEach(
            c -> {
              if (c == '"' || c == '\'' || c == '`' || c < 0x20 || c == 0x7f) {
                out.append(String.format("\\x{%x}", c));
              } else {
                if (REGEX_META.indexOf(c) >= 0) {
                  out.append('\\');
                }
                out.appendCodePoint(c);
              }
            });
    return out.toString();
  }

  private static int count(Matcher matcher) {
    int n = 0;
    while (matcher.find()) {
      n++;
    }
    return n;
  }
}
