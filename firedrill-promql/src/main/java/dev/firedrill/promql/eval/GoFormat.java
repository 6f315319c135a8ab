package dev.firedrill.promql.eval;

import dev.firedrill.format.GoQuote;
import dev.firedrill.promql.model.LabelSet;

/**
 * Go's rendering of label sets that Prometheus's error messages carry, so ours read the same
 * (numbers: GoFloat).
 */
final class GoFormat {

  private GoFormat() {}

  /** {@code labels.Labels.String()}: {@code {__name__="a", b="c"}}, the name as a plain label. */
  static String labels(LabelSet labels) {
    StringBuilder out = new StringBuilder("{");
    for (int i = 0; i < labels.size(); i++) {
      if (i > 0) {
        out.append(", ");
      }
      out.append(labels.name(i)).append('=').append(GoQuote.of(labels.value(i)));
    }
    return out.append('}').toString();
  }
}
