package dev.firedrill.promql.fn;

import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import java.util.regex.Pattern;

/** {@code label_replace} and {@code label_join}, one label set at a time. */
public final class LabelFunctions {

  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  private LabelFunctions() {}

  /**
   * {@link LabelReplace#compile} and {@link LabelReplace#apply} in one; compile once instead when
   * there are many label sets.
   *
   * @throws dev.firedrill.promql.model.PromqlException EXECUTION with Prometheus's message for an
   *     invalid regex or destination label name
   */
  public static LabelSet replace(
      LabelSet labels, String dst, String replacement, String src, String regex) {
    return replace(labels, dst, replacement, src, regex, false);
  }

  /** As above, in Prometheus 3's way when {@code prometheus3} (see {@link LabelReplace}). */
  public static LabelSet replace(
      LabelSet labels,
      String dst,
      String replacement,
      String src,
      String regex,
      boolean prometheus3) {
    return LabelReplace.compile(dst, replacement, src, regex, prometheus3).apply(labels);
  }

  /**
   * The source values (empty for missing labels) joined by the separator into dst, which is removed
   * when the result is empty.
   *
   * @throws PromqlException EXECUTION with Prometheus's message for the first invalid source label
   *     name, then for an invalid destination label name
   */
  public static LabelSet join(LabelSet labels, String dst, String separator, String... srcLabels) {
    return join(false, labels, dst, separator, srcLabels);
  }

  /** As above; with {@code prometheus3} any non-empty UTF-8 label name is valid. */
  public static LabelSet join(
      boolean prometheus3, LabelSet labels, String dst, String separator, String... srcLabels) {
    for (String src : srcLabels) {
      if (!isValidLabelName(src, prometheus3)) {
        throw new PromqlException(
            PromqlException.ErrorType.EXECUTION,
            "invalid source label name in label_join(): " + src);
      }
    }
    if (!isValidLabelName(dst, prometheus3)) {
      throw new PromqlException(
          PromqlException.ErrorType.EXECUTION,
          "invalid destination label name in label_join(): " + dst);
    }
    StringBuilder joined = new StringBuilder();
    for (int i = 0; i < srcLabels.length; i++) {
      if (i > 0) {
        joined.append(separator);
      }
      joined.append(labels.get(srcLabels[i]));
    }
    return labels.toBuilder().set(dst, joined.toString()).build();
  }

  /**
   * Prometheus 2's {@code [a-zA-Z_][a-zA-Z0-9_]*}; Prometheus 3's UTF-8 names: any non-empty valid
   * UTF-8 (an invalid byte of a Go string literal reads as U+FFFD here).
   */
  static boolean isValidLabelName(String name, boolean prometheus3) {
    return prometheus3
        ? !name.isEmpty() && name.indexOf('\uFFFD') < 0
        : LABEL_NAME.matcher(name).matches();
  }
}
