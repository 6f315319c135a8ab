package dev.firedrill.promql.fn;

import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.regex.GoRegex;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code label_replace(v, dst, replacement, src, regex)} call, its regex compiled once for all
 * the series it is applied to.
 */
public final class LabelReplace {

  private final String dst;
  private final String replacement;
  private final String src;
  private final Pattern pattern;
  private final List<String> groupNames;

  private LabelReplace(
      String dst, String replacement, String src, Pattern pattern, List<String> groupNames) {
    this.dst = dst;
    this.replacement = replacement;
    this.src = src;
    this.pattern = pattern;
    this.groupNames = groupNames;
  }

  /**
   * @throws PromqlException EXECUTION with Prometheus's message for an invalid regex or, checked
   *     after it, an invalid destination label name
   */
  public static LabelReplace compile(String dst, String replacement, String src, String regex) {
    return compile(dst, replacement, src, regex, false);
  }

  /**
   * As above; with {@code prometheus3} as Prometheus 3 does it: the regex's {@code .} matches a
   * newline ({@code ^(?s:re)$}) and any non-empty UTF-8 destination name is valid.
   */
  public static LabelReplace compile(
      String dst, String replacement, String src, String regex, boolean prometheus3) {
    // Prometheus pastes the regex between anchors, so a top-level | in it escapes them: "a)|(b" is
    // ^(?:a)|(b)$.
    String anchored = (prometheus3 ? "^(?s:" : "^(?:") + regex + ")$";
    Pattern pattern;
    try {
      pattern = GoRegex.compileAnchored(anchored);
    } catch (IllegalArgumentException e) {
      throw new PromqlException(
          PromqlException.ErrorType.EXECUTION,
          "invalid regular expression in label_replace(): " + regex);
    }
    if (!LabelFunctions.isValidLabelName(dst, prometheus3)) {
      throw new PromqlException(
          PromqlException.ErrorType.EXECUTION,
          "invalid destination label name in label_replace(): " + dst);
    }
    return new LabelReplace(dst, replacement, src, pattern, GroupNames.of(anchored));
  }

  /** Whether the regex matches the source label's value, so that {@link #apply} sets dst. */
  public boolean matches(LabelSet labels) {
    return pattern.matcher(labels.get(src)).find();
  }

  /**
   * The labels unchanged when the regex does not match; else dst set to the expansion, or removed
   * if it is empty.
   */
  public LabelSet apply(LabelSet labels) {
    String value = labels.get(src);
    Matcher m = pattern.matcher(value);
    if (!m.find()) {
      return labels;
    }
    return labels.toBuilder().set(dst, expand(m, value)).build();
  }

  /**
   * Go's {@code Regexp.Expand}: {@code $$} is a dollar; {@code $name} takes the longest run of
   * letters, digits and underscores ({@code $1x} is the group named "1x"); {@code ${name}} ends at
   * the brace; a group that did not take part or does not exist expands to nothing; a {@code $}
   * starting no valid reference stays as it is.
   */
  private String expand(Matcher m, String value) {
    StringBuilder out = new StringBuilder();
    String template = replacement;
    while (true) {
      int dollar = template.indexOf('$');
      if (dollar < 0) {
        break;
      }
      out.append(template, 0, dollar);
      template = template.substring(dollar + 1);
      if (template.startsWith("$")) {
        out.append('$');
        template = template.substring(1);
        continue;
      }
      Reference ref = Reference.parse(template);
      if (ref == null) {
        out.append('$');
        continue;
      }
      template = template.substring(ref.length);
      out.append(group(m, value, ref));
    }
    return out.append(template).toString();
  }

  private String group(Matcher m, String value, Reference ref) {
    if (ref.number >= 0) {
      return ref.number <= m.groupCount() && m.start(ref.number) >= 0
          ? value.substring(m.start(ref.number), m.end(ref.number))
          : "";
    }
    for (int i = 0; i < groupNames.size() && i <= m.groupCount(); i++) {
      if (ref.name.equals(groupNames.get(i)) && m.start(i) >= 0) {
        return value.substring(m.start(i), m.end(i));
      }
    }
    return "";
  }

  /**
   * A {@code $} reference's name, its group number if the name is one (-1 if not), and its length
   * after the {@code $}.
   */
  private record Reference(String name, int number, int length) {

    static Reference parse(String s) {
      boolean brace = s.startsWith("{");
      int start = brace ? 1 : 0;
      int i = start;
      while (i < s.length()) {
        int cp = s.codePointAt(i);
        if (!Character.isLetter(cp) && !Character.isDigit(cp) && cp != '_') {
          break;
        }
        i += Character.charCount(cp);
      }
      if (i == start) {
        return null;
      }
      String name = s.substring(start, i);
      if (brace) {
        if (i >= s.length() || s.charAt(i) != '}') {
          return null;
        }
        i++;
      }
      return new Reference(name, number(name), i);
    }

    /** Decimal digits below 10^8 without a leading zero; Go reads anything else as a name. */
    private static int number(String name) {
      int num = 0;
      for (int i = 0; i < name.length(); i++) {
        char c = name.charAt(i);
        if (c < '0' || c > '9' || num >= 100_000_000) {
          return -1;
        }
        num = num * 10 + (c - '0');
      }
      return name.charAt(0) == '0' && name.length() > 1 ? -1 : num;
    }
  }
}
